// What the Collections and Sources pages share: the token from the address, API calls that carry it and
// turn the service's errors into exceptions, the toast, and the header's brand.

export const token = new URLSearchParams(location.search).get('token');
export const authHeaders = token ? { Authorization: `Bearer ${token}` } : {};

/// One API call: JSON answers parsed (other bodies as a Blob), a 204 as null, errors (the service's
/// {"error": {"message"}}) thrown with their message.
export async function call(path, init = {}) {
  const response = await fetch(path, { ...init, headers: { ...authHeaders, ...(init.headers || {}) } });
  if (response.status === 204) return null;
  const type = response.headers.get('content-type') || '';
  const body = type.includes('json') ? await response.json() : await response.blob();
  if (!response.ok) {
    throw new Error(body && body.error ? body.error.message : `${response.status} ${response.statusText}`);
  }
  return body;
}

/// Shows `message` for four seconds.
export function toast(message) {
  const box = document.getElementById('toast');
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

/// Builds what every such page has around its own content: the brand, with `tag`, at the start of the
/// header (the link back keeping the token), the status block for automation at the end of <main>
/// (filled by `showStatus`), and the toast.
export function frame(tag) {
  const brand = document.createElement('div');
  brand.className = 'brand';
  brand.innerHTML = '<span class="logo" aria-hidden="true"><span class="logo-dot"></span></span>' +
    '<span class="brand-name">SwiftVision</span><span class="brand-tag"></span>';
  brand.querySelector('.brand-tag').textContent = tag;
  document.querySelector('header.topbar').prepend(brand);
  const live = document.getElementById('live-link');
  if (token && live) live.href = `./?token=${encodeURIComponent(token)}`;
  const status = document.createElement('details');
  status.className = 'card debug';
  status.innerHTML = '<summary>Status (for automation)</summary><pre id="status">{}</pre>';
  document.querySelector('main').append(status);
  const box = document.createElement('div');
  box.className = 'toast';
  box.id = 'toast';
  box.setAttribute('role', 'status');
  box.hidden = true;
  document.body.append(box);
}

/// Shows `state` in the status block.
export function showStatus(state) {
  document.getElementById('status').textContent = JSON.stringify(state, null, 1);
}
