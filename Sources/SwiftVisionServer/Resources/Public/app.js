// SwiftVision Live: streams camera or file frames to `GET /v1/stream/{task}` (a WebSocket) and draws
// each result over the preview. ES modules, no dependencies, no build step.
//
// The page knows no task of its own: `GET /v1/tasks` gives each task's name, title, summary, default
// options, the options a form leaves alone, and (pose, hands) the skeleton's bones. Each task's
// results are drawn by renderers/<task name>.js, which may export:
//   draw(result, m)        draws a result over the frame (`m` maps frame pixels to the overlay)
//   panel(result)          the side panel's HTML for a result
//   receive(result)        hears each result before it is drawn
//   shown(result, drawn)   hears what `draw` answered for it
//   drawOver()             draws what is not a result (a box being dragged)
//   enter(), leave()       the task is chosen, or another one is
//   hint()                 the stage's hint while a source runs
//   pageDefaults           options the page sets other than the server's defaults
//   optionLabels           the form's names for options
//   seedOptions            options sent with seed boxes, not in the stream's URL
//   restNote               what the API card says instead of a curl line
import { authHeaders, toast, token } from './shared.js';
import { actions, el, page, params, sv } from './page.js';
import { clearOverlay, escapeHTML, mapper } from './draw.js';
import { isSeedOption, optionQuery, renderOptions, resetOptions } from './options.js';
import { connect, disconnect, isConnected, publish, updateStats } from './stream.js';
import { layout, openFile, startCamera, stopSource } from './camera.js';

/** What the page does for a task without a renderer module: the result as JSON in the panel. */
const plainRenderer = { panel: (r) => `<pre class="code">${escapeHTML(JSON.stringify(r, null, 1).slice(0, 2000))}</pre>` };
const renderers = new Map();   // task name -> its module

if (token) {
  for (const name of ['collections', 'sources']) {
    document.getElementById(`${name}-link`).href = `${name}.html?token=${encodeURIComponent(token)}`;
  }
}

async function loadTasks() {
  try {
    const res = await fetch('/v1/tasks', { headers: authHeaders });
    if (!res.ok) throw new Error(`GET /v1/tasks answered ${res.status}`);
    page.tasks = await res.json();
  } catch (err) {
    el.taskSummary.textContent = `Could not list the tasks: ${err.message}`;
    toast(`Could not list the tasks: ${err.message}`);
    return;
  }
  await Promise.all(page.tasks.map(async ({ name }) => {
    try {
      renderers.set(name, await import(`./renderers/${encodeURIComponent(name)}.js`));
    } catch (err) {
      toast(`No renderer for ${name}: its results are shown as JSON`);
    }
  }));
  el.task.innerHTML = page.tasks.map((t) => `<option value="${escapeHTML(t.name)}">${escapeHTML(t.title || t.name)}</option>`).join('');
  const wanted = params.get('task');
  const first = page.tasks.find((t) => t.name === wanted) || page.tasks[0];
  if (first) selectTask(first.name, true);
  if (params.get('autostart') === '1') {
    if ((params.get('source') || 'camera') === 'camera') startCamera();
  }
}

function selectTask(name, fromQuery = false) {
  page.renderer?.leave?.();
  sv.task = name;
  el.task.value = name;
  page.info = page.tasks.find((t) => t.name === name) || { name, title: name, options: {}, hiddenOptions: [], bones: [] };
  page.renderer = renderers.get(name) || plainRenderer;
  resetOptions(fromQuery);
  page.pendingOptions = {};
  page.pendingSeed = null;
  sv.seed = null;
  page.renderer.enter?.();
  el.taskTitle.textContent = page.info.title || name;
  el.taskSummary.textContent = page.info.summary || '';
  el.taskPill.hidden = !page.info.tracksAcrossFrames;
  renderOptions(setOption);
  renderApi();
  page.current = null;
  // A panel held back by the throttle below holds the last task's result, which this renderer cannot read.
  clearTimeout(panelTimer);
  panelTimer = 0;
  el.results.innerHTML = '<p class="muted">No results yet.</p>';
  el.resultMeta.textContent = '';
  updateStageMode();
  drawOverlay();
  if (page.source) connect();
}

/** The endpoints the page uses for the current task and options, for copying into other programs. */
function renderApi() {
  const q = optionQuery().replace(/(^|&)token=[^&]*/, '$1token=…');
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  el.apiWs.textContent = `${scheme}://${location.host}/v1/stream/${sv.task}${q ? `?${q}` : ''}`;
  el.apiRest.textContent = page.renderer.restNote
    || `curl -H 'Content-Type: image/jpeg' --data-binary @photo.jpg '${location.origin}/v1/${sv.task}${q ? `?${q}` : ''}'`;
}

function setOption(key, value) {
  page.options[key] = value;
  renderApi();
  if (isSeedOption(key)) return;   // sent with the next seed box
  if (page.source && !isConnected()) { connect(); return; }   // the last options were refused: try these
  page.pendingOptions[key] = value;
  updateStageMode();
}

function updateStageMode() {
  const hint = page.renderer.hint?.() || '';
  el.hint.textContent = hint;
  el.hint.hidden = !hint || !page.source;
}

/** Redraws the overlay; answers what the renderer's `draw` answered (faces: how many it drew). */
function drawOverlay() {
  clearOverlay();
  if (!page.source || !page.view.w) return 0;
  let drawn = 0;
  if (page.current) drawn = page.renderer.draw?.(page.current.result, mapper(page.current.meta)) ?? 0;
  page.renderer.drawOver?.();
  return drawn;
}

function showResult(result, meta, latency) {
  page.renderer.receive?.(result);
  page.current = { result, meta };
  const drawn = drawOverlay();
  page.renderer.shown?.(result, drawn);
  renderPanel(result, latency);
}

let lastPanelAt = 0, panelTimer = 0, panelArgs = null;
/** The side panel for a result, at most about eight times a second. */
function renderPanel(r, latency) {
  panelArgs = [r, latency];
  const now = performance.now();
  if (now - lastPanelAt < 120) {
    if (!panelTimer) panelTimer = setTimeout(() => { panelTimer = 0; renderPanel(...panelArgs); }, 130);
    return;
  }
  lastPanelAt = now;
  el.resultMeta.textContent = `frame ${r.frame ?? '–'}${latency != null ? ` · ${Math.round(latency)} ms` : ''}`;
  el.results.innerHTML = (page.renderer.panel || plainRenderer.panel)(r) || '<p class="muted">Nothing found in this frame.</p>';
}

Object.assign(actions, { setOption, showResult, redraw: drawOverlay, updateStageMode });

el.task.addEventListener('change', () => selectTask(el.task.value));
el.startCamera.addEventListener('click', startCamera);
el.fileInput.addEventListener('change', () => { openFile(el.fileInput.files[0]); el.fileInput.value = ''; });
el.stop.addEventListener('click', stopSource);
el.mirror.addEventListener('change', () => { layout(); updateStats(); });
window.addEventListener('beforeunload', () => disconnect());

el.stage.classList.add('idle');
publish();
loadTasks();
