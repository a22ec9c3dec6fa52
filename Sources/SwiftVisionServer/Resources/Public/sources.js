// SwiftVision Sources: the cameras and files the server runs on its own (/v1/sources), their state and
// counters, and each one's events as they happen (/v1/sources/{id}/events, read with fetch so that a token
// goes with it). The state is mirrored in window.swiftVisionSources and <pre id="status"> for automation.

import { authHeaders, call, frame, showStatus, toast } from './shared.js';

const $ = (id) => document.getElementById(id);
frame('Sources');
const eventsShown = 12;

const state = { sources: [], events: {}, refreshes: 0, lastError: null };
window.swiftVisionSources = state;
const listening = new Map();  // source id → AbortController of its event stream

function publish() {
  showStatus(state);
}

function failed(message) {
  state.lastError = message;
  toast(message);
  publish();
}

// ---------- the list ----------

async function refresh() {
  try {
    state.sources = await call('/v1/sources');
    state.refreshes++;
    render();
    for (const source of state.sources) if (!listening.has(source.id)) listen(source.id);
    for (const id of listening.keys()) if (!state.sources.some((s) => s.id === id)) stopListening(id);
  } catch (error) {
    failed(error.message);
  }
  publish();
}

function render() {
  const list = $('sources');
  const cards = state.sources.map((source) => card(source));
  list.replaceChildren(...cards);
  $('note').hidden = state.sources.length > 0;
}

function card(source) {
  const section = document.createElement('section');
  section.className = 'card source';
  section.dataset.id = source.id;
  const head = document.createElement('div');
  head.className = 'card-head';
  const title = document.createElement('h2');
  title.textContent = `${source.task} · ${source.url}`;
  title.title = source.url;
  const pill = document.createElement('span');
  pill.className = `pill state-${source.state}`;
  pill.textContent = source.state;
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'btn small danger';
  remove.textContent = 'Remove';
  remove.addEventListener('click', () => removeSource(source.id));
  head.append(title, pill, remove);
  const counters = document.createElement('p');
  counters.className = 'muted';
  counters.textContent = `${source.fpsIn.toFixed(1)} fps in · ${source.fpsOut.toFixed(1)} results/s · ${source.framesOut} results · ` +
    `${source.framesDropped} dropped · ${source.reconnects} reconnects · ${source.events} events` +
    (source.lastError ? ` · last error: ${source.lastError}` : '');
  const feed = document.createElement('ol');
  feed.className = 'event-feed';
  for (const event of (state.events[source.id] || []).slice(-eventsShown).reverse()) {
    const item = document.createElement('li');
    const time = new Date(event.timestampMs).toLocaleTimeString();
    item.textContent = `${time}  ${event.type}` + [event.label, event.value, event.trackingID != null ? `#${event.trackingID}` : null]
      .filter((part) => part != null).map((part) => ` ${part}`).join('');
    feed.append(item);
  }
  section.append(head, counters, feed);
  return section;
}

// ---------- events ----------

// Reads the server-sent events of one source for as long as it exists; each event lands in its card.
async function listen(id) {
  const controller = new AbortController();
  listening.set(id, controller);
  try {
    const response = await fetch(`/v1/sources/${encodeURIComponent(id)}/events`, { headers: authHeaders, signal: controller.signal });
    if (!response.ok) throw new Error(`events of ${id}: ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        if (!data) continue;
        const event = JSON.parse(data);
        const kept = (state.events[id] = state.events[id] || []);
        kept.push(event);
        if (kept.length > 100) kept.shift();
        render();
        publish();
      }
    }
  } catch (error) {
    if (error.name !== 'AbortError') failed(error.message);
  } finally {
    if (listening.get(id) === controller) listening.delete(id);
  }
}

function stopListening(id) {
  listening.get(id)?.abort();
  listening.delete(id);
}

// ---------- adding and removing ----------

async function removeSource(id) {
  try {
    await call(`/v1/sources/${encodeURIComponent(id)}`, { method: 'DELETE' });
    stopListening(id);
    await refresh();
  } catch (error) {
    failed(error.message);
  }
}

$('add-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const body = { url: $('url').value.trim(), task: $('task').value, fps: Number($('fps').value) || 5 };
  if (body.task === 'objects') body.options = { multiple: true, classify: true };
  if (body.url.startsWith('file:')) body.loop = true;  // a file plays on as a camera would
  try {
    await call('/v1/sources', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    await refresh();
  } catch (error) {
    failed(error.message);
  }
});

async function loadTasks() {
  try {
    const tasks = await call('/v1/tasks');
    $('task').replaceChildren(...tasks.map((task) => {
      const option = document.createElement('option');
      option.value = task.name;
      option.textContent = task.title || task.name;
      option.selected = task.name === 'objects';
      return option;
    }));
  } catch (error) {
    failed(error.message);
  }
}

loadTasks();
refresh();
setInterval(refresh, 2000);
