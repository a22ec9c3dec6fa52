// SwiftVision Collections: add photos to a collection, search it by filters and similarity, see its
// near-duplicates. Everything goes through the service's /v1/collections API; the state the page shows is
// mirrored in window.swiftVisionCollections and <pre id="status"> for automation.

import { call, frame, showStatus, toast } from './shared.js';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
frame('Collections');

const state = {
  collection: params.get('collection') || 'photos',
  ingesting: false,
  added: 0,
  skipped: 0,
  failed: 0,
  total: 0,
  view: 'list',
  items: [],
  groups: [],
  thumbnails: 0,
  searches: 0,
  lastError: null,
};
window.swiftVisionCollections = state;

function publish() {
  showStatus(state);
}

function collectionPath(suffix = '') {
  return `/v1/collections/${encodeURIComponent(state.collection)}${suffix}`;
}

function failed(error) {
  state.lastError = String(error.message || error);
  toast(state.lastError);
  publish();
}

async function refreshNames() {
  try {
    const collections = await call('/v1/collections');
    $('collection-names').replaceChildren(...collections.map((c) => {
      const option = document.createElement('option');
      option.value = c.name;
      option.label = `${c.items} items`;
      return option;
    }));
  } catch (error) {
    failed(error);
  }
}

// ---------- adding ----------

function showProgress(started) {
  const done = state.added + state.skipped + state.failed;
  const seconds = (performance.now() - started) / 1000;
  const rate = done / Math.max(seconds, 0.001);
  const left = rate > 0 ? (state.total - done) / rate : 0;
  $('ingest-progress').max = Math.max(state.total, 1);
  $('ingest-progress').value = done;
  $('ingest-meta').textContent = `${done} / ${state.total} · ${state.added} added, ${state.skipped} already there, ` +
    `${state.failed} failed · ${rate.toFixed(1)}/s` + (state.ingesting ? ` · ${Math.ceil(left)} s left` : '');
  publish();
}

async function addFiles(files) {
  const pictures = [...files].filter((file) => file.type.startsWith('image/'));
  if (!pictures.length || state.ingesting) return;
  Object.assign(state, { ingesting: true, added: 0, skipped: 0, failed: 0, total: pictures.length, lastError: null });
  $('ingest-card').hidden = false;
  const started = performance.now();
  showProgress(started);
  // Two at a time: one uploads while the service analyses the other.
  let next = 0;
  async function worker() {
    while (next < pictures.length) {
      const file = pictures[next++];
      const source = (file.webkitRelativePath || file.name).slice(0, 500);
      try {
        const answer = await call(`${collectionPath('/items')}?source=${encodeURIComponent(source)}`, {
          method: 'POST', headers: { 'Content-Type': file.type || 'application/octet-stream' }, body: file,
        });
        if (answer.added) state.added++; else state.skipped++;
      } catch (error) {
        state.failed++;
        state.lastError = `${source}: ${error.message}`;
      }
      showProgress(started);
    }
  }
  await Promise.all([worker(), worker()]);
  state.ingesting = false;
  showProgress(started);
  if (state.failed) toast(`${state.failed} of ${state.total} could not be added: ${state.lastError}`);
  await refreshNames();
  await search();
}

// ---------- searching ----------

function words(id) {
  return $(id).value.split(',').map((w) => w.trim()).filter(Boolean);
}

function query(extra = {}) {
  const q = { k: Math.min(Math.max(parseInt($('k').value, 10) || 60, 1), 1000), ...extra };
  const labels = words('labels');
  const noLabels = words('no-labels');
  if (labels.length) q.labels = labels;
  if (noLabels.length) q.noLabels = noLabels;
  if ($('text').value.trim()) q.text = $('text').value.trim();
  if ($('faces').value.trim()) q.faces = $('faces').value.trim();
  return q;
}

async function search(extra = {}) {
  try {
    const answer = await call(collectionPath('/search'), {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(query(extra)),
    });
    show(answer.hits, extra.item ? `like item ${extra.item}` : 'matching the filters');
  } catch (error) {
    if (/no collection named/.test(error.message)) show([], 'empty: add photos to make it');
    else failed(error);
  }
}

async function searchWithPhoto(file) {
  if (!file) return;
  try {
    const answer = await call(`${collectionPath('/search')}?k=${query().k}`, {
      method: 'POST', headers: { 'Content-Type': file.type || 'application/octet-stream' }, body: file,
    });
    show(answer.hits, `like ${file.name}`);
  } catch (error) {
    failed(error);
  }
}

async function duplicates() {
  try {
    const groups = await call(collectionPath('/duplicates'));
    state.view = 'duplicates';
    state.groups = groups.map((group) => group.map((item) => item.id));
    const grid = $('grid');
    grid.replaceChildren();
    for (const [index, group] of groups.entries()) {
      const row = document.createElement('div');
      row.className = 'group';
      const title = document.createElement('h3');
      title.textContent = `Group ${index + 1} · ${group.length} pictures`;
      row.append(title, ...group.map((item) => tile(item)));
      grid.append(row);
    }
    const plural = groups.length === 1 ? 'group' : 'groups';
    $('grid-note').textContent = groups.length ? `${groups.length} ${plural} of near-duplicates` : 'No near-duplicates.';
    state.searches++;
    publish();
  } catch (error) {
    failed(error);
  }
}

function show(hits, description) {
  state.view = 'list';
  state.groups = [];
  state.items = hits.map((hit) => ({ id: hit.item.id, source: hit.item.source, score: hit.score ?? null }));
  $('grid').replaceChildren(...hits.map((hit) => tile(hit.item, hit.score)));
  $('grid-note').textContent = `${hits.length} pictures ${description}` + (hits.length ? '; click one to find similar pictures' : '');
  state.searches++;
  publish();
}

function tile(item, score) {
  const figure = document.createElement('figure');
  figure.className = 'tile';
  figure.dataset.id = item.id;
  const image = document.createElement('img');
  image.alt = item.source;
  image.width = 160;
  image.height = 160;
  loadThumbnail(item.id, image);
  const caption = document.createElement('figcaption');
  const name = item.source.split('/').pop();
  caption.textContent = score == null ? name : `${name} · ${score.toFixed(3)}`;
  caption.title = item.source;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'tile-remove';
  remove.title = 'Remove from the collection';
  remove.textContent = '×';
  remove.addEventListener('click', async (event) => {
    event.stopPropagation();
    try {
      await call(collectionPath(`/items/${item.id}`), { method: 'DELETE' });
      figure.remove();
      state.items = state.items.filter((shown) => shown.id !== item.id);
      publish();
    } catch (error) {
      failed(error);
    }
  });
  figure.append(image, caption, remove);
  figure.addEventListener('click', () => search({ item: item.id }));
  return figure;
}

// Thumbnails come through fetch, so that a service with a token serves them too (an <img> sends no header).
async function loadThumbnail(id, image) {
  try {
    const blob = await call(collectionPath(`/items/${id}/thumbnail`));
    image.src = URL.createObjectURL(blob);
    image.addEventListener('load', () => URL.revokeObjectURL(image.src), { once: true });
    state.thumbnails++;
    publish();
  } catch {
    image.classList.add('missing');
  }
}

// ---------- wiring ----------

$('collection').value = state.collection;
$('collection').addEventListener('change', () => {
  state.collection = $('collection').value.trim() || 'photos';
  search();
});
$('add-files').addEventListener('change', (event) => addFiles(event.target.files));
$('add-folder').addEventListener('change', (event) => addFiles(event.target.files));
$('search-photo').addEventListener('change', (event) => searchWithPhoto(event.target.files[0]));
$('search-form').addEventListener('submit', (event) => { event.preventDefault(); search(); });
$('clear').addEventListener('click', () => {
  for (const id of ['labels', 'no-labels', 'text', 'faces']) $(id).value = '';
  search();
});
$('duplicates').addEventListener('click', duplicates);

const zone = $('drop-zone');
zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('over'); });
zone.addEventListener('dragleave', () => zone.classList.remove('over'));
zone.addEventListener('drop', (event) => {
  event.preventDefault();
  zone.classList.remove('over');
  addFiles(event.dataTransfer.files);
});
const photoButton = document.querySelector('label[for="search-photo"]');
photoButton.addEventListener('dragover', (event) => event.preventDefault());
photoButton.addEventListener('drop', (event) => {
  event.preventDefault();
  event.stopPropagation();
  searchWithPhoto(event.dataTransfer.files[0]);
});

publish();
refreshNames();
search();
