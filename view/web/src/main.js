// gloved's live page: connects to the daemon's WebSocket, draws the scene
// and hands, and asks for the next frames each time it has drawn one, so
// the daemon sends at this page's refresh rate. window.gloved holds what
// the page shows, for tests and for curious users at the console.
import { World } from './world.js';
import { Panel } from './panels.js';
import { loadGLTF } from './gltf.js';
import { CalibrationPanel } from './calibration.js';

const $ = (id) => document.getElementById(id);
const world = new World($('view'));
const params = new URLSearchParams(location.search);

const state = {
  connected: false,
  scene: null, // {objects, hands: [{name, links}]} as received
  sceneObjects: 0, // object meshes drawn
  handLinks: [], // link meshes drawn, per hand
  frames: 0, // frame messages drawn
  hands: [], // per hand: the frame drawn {seq, t, status, live, contacts: [{link, object, depth}]}
  arrows: 0, // contact arrows visible
  skipped: 0,
  paused: false,
  mode: 'live', // or 'timeline'
  gltf: null,
  calibration: null, // the calibration shown, as received
  skins: [], // per hand: {vertices, triangles, bones} of its skin drawn, or null
  // per hand: its WebXR hand once read, {url, bones, vertices, triangles}
  // or {url, error}; null for a hand with a skin of its own, or a ghost
  xrHands: [],
  hulls: false, // the link hulls are shown (the toggle)
  shown: () => world.handGroups.map((_, i) => world.shown(i)), // per hand: 'webxr', 'hulls', 'skin' or 'skin+hulls'
  skinVertex: (hand, v) => world.skinVertex(hand, v), // a skin or WebXR hand vertex as drawn, world space
  xrJoint: (hand, name) => world.xrJoint(hand, name), // an OpenXR joint on the drawn links, world space
  project: (p) => world.project(p), // a world point on the page, CSS pixels
  pause: () => setPaused(true),
  resume: () => setPaused(false),
};
window.gloved = state;

let socket = null;
let waiting = false; // a request is out
let panels = [];
let timeline = { duration: 0, clock: 0, playing: true, last: 0 };
let fitted = false;

function setConn(text, cls) {
  const c = $('conn');
  c.textContent = text;
  c.className = 'badge ' + cls;
}

function setPaused(p) {
  state.paused = p;
  $('pause').textContent = p ? 'Resume' : 'Pause';
}

$('pause').onclick = () => setPaused(!state.paused);
$('reset').onclick = () => world.fit();
// The hulls toggle: the hands are drawn as hands (the WebXR hand, or a
// skin) until it is pressed; then as the link hulls contacts are computed
// on. The choice is kept in the address (?hulls=1, to share it) and in
// this browser's storage (for the next visit).
function setHulls(on) {
  world.showHulls(on);
  state.hulls = on;
  $('hulls').textContent = on ? 'Hide hulls' : 'Show hulls';
  $('hulls').setAttribute('aria-pressed', String(on));
  try { localStorage.setItem('gloved.hulls', on ? '1' : '0'); } catch { /* storage off: the address keeps it */ }
  const url = new URL(location.href);
  url.searchParams.set('hulls', on ? '1' : '0');
  history.replaceState(null, '', url);
}

function storedHulls() {
  if (params.has('hulls')) return params.get('hulls') === '1';
  try { return localStorage.getItem('gloved.hulls') === '1'; } catch { return false; }
}

$('hulls').onclick = () => setHulls(!world.hulls);
world.showHulls(storedHulls());
state.hulls = world.hulls;
$('hulls').textContent = world.hulls ? 'Hide hulls' : 'Show hulls';

function connect() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(`${proto}//${location.host}/ws`);
  waiting = false;
  socket.onopen = () => { state.connected = true; setConn('connected', 'ok'); };
  socket.onclose = () => {
    state.connected = false;
    setConn('disconnected: retrying', 'bad');
    setTimeout(connect, 1000);
  };
  socket.onmessage = (e) => {
    const msg = JSON.parse(e.data);
    if (msg.type === 'scene') onScene(msg);
    else if (msg.type === 'frame') onFrame(msg);
    else if (msg.type === 'calibration') onCalibration(msg);
  };
}

// A calibration takes the hands' panels' place.
const calibration = new CalibrationPanel($('calibration'), (serial, answer, poses) => {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'answer', serial, answer, poses }));
});

function onCalibration(msg) {
  state.calibration = msg;
  $('hands').hidden = true;
  calibration.show(msg);
  if (msg.phase === 'review' && state.reviewShown !== msg.shown) { state.reviewShown = msg.shown; fitted = false; }
}

function onScene(msg) {
  state.scene = { objects: msg.objects.map((o) => o.name), hands: msg.hands.map((h) => ({ name: h.name, links: h.links.length })) };
  state.budget = msg.budget_ms;
  $('title').textContent = 'gloved' + (msg.title ? ' · ' + msg.title : '');
  document.title = 'gloved' + (msg.title ? ' · ' + msg.title : '');
  state.xrHands = msg.hands.map(() => null);
  world.setScene(msg, (i, info) => {
    state.xrHands[i] = info;
    if (info.error) console.warn(`gloved: the WebXR hand ${info.url} could not be read (${info.error}); its hulls are drawn`);
  });
  state.sceneObjects = world.objects.children.length;
  state.handLinks = world.handGroups.map((g) => g.links.length);
  state.skins = msg.hands.map((h) => h.skin ? { vertices: h.skin.positions.length / 3, triangles: h.skin.indices.length / 3, bones: h.skin.bone_links.length } : null);
  $('hulls').hidden = !msg.hands.some((h) => !h.ghost && (h.skin || h.xr_hand));
  $('hands').innerHTML = '';
  panels = msg.hands.map((h) => (h.ghost ? null : new Panel($('hands'), h.name)));
  state.hands = msg.hands.map(() => null);
  timeline.duration = msg.duration || 0;
  state.mode = msg.live ? 'live' : timeline.duration > 0 ? 'timeline' : 'live';
  $('timeline').hidden = !(timeline.duration > 0);
  $('live').hidden = !(msg.live && timeline.duration > 0);
  state.live = !!msg.live;
  fitted = false;
  waiting = false;
}

const NO_PANEL = { event() {}, update() {} };

function onFrame(msg) {
  waiting = false;
  if (state.paused && state.mode === 'live') return;
  const now = performance.now();
  for (const f of msg.hands) {
    if (f.hand >= panels.length) continue;
    world.pose(f.hand, f.links);
    const p = panels[f.hand] || NO_PANEL; // a ghost has none
    for (const t of f.touches) {
      if (t.begin) world.flash(f.hand, t.link, 250);
      p.event('touch', `${t.link} ${t.begin ? 'touches' : 'leaves'} ${t.object}`, t.begin);
    }
    for (const e of f.pinches) {
      if (e.begin) { world.flash(f.hand, e.link + '3', 400); world.flash(f.hand, 'thumb3', 400); }
      p.event('pinch', `pinch ${e.link} ${e.begin ? 'begins' : 'ends'}`, e.begin);
    }
    for (const e of f.fists) {
      if (e.begin) world.flashHand(f.hand, 400);
      p.event('fist', e.begin ? 'fist' : 'fist opens', e.begin);
    }
    const prev = state.hands[f.hand];
    const selfNow = new Set(f.self.map((s) => s.a + '/' + s.b));
    if (prev) for (const k of selfNow) if (!prev.selfKeys.has(k)) p.event('self', k.replace('/', ' touches '), true);
    world.tint(f.hand, f, now);
    p.update(f, state.budget || 5);
    state.hands[f.hand] = { seq: f.seq, t: f.t, status: f.status, live: f.live, frames: f.frames, dropped: f.dropped, contacts: [], selfKeys: selfNow, self: f.self.length, near: f.near.length };
    state.latest = state.latest || [];
    state.latest[f.hand] = f;
  }
  const shown = world.showContacts(state.latest ? state.latest.filter(Boolean) : []);
  let i = 0;
  state.arrows = 0;
  for (const f of state.latest || []) {
    if (!f) continue;
    state.hands[f.hand].contacts = shown[i++];
    state.arrows += state.hands[f.hand].contacts.length;
  }
  if (msg.hands.length) state.frames++;
  if (msg.skipped !== undefined && state.mode === 'live') {
    state.skipped = msg.skipped;
    $('skipped').textContent = msg.skipped ? `${msg.skipped} view frames skipped` : '';
  }
  if (!fitted && msg.hands.length) { world.fit(); fitted = true; }
  if (state.mode === 'timeline' && msg.hands.length) {
    $('clock').textContent = `${msg.hands[0].t.toFixed(2)} s`;
  }
}

function request(q) {
  if (!socket || socket.readyState !== WebSocket.OPEN || waiting) return;
  waiting = true;
  socket.send(JSON.stringify(q));
}

// The timeline: a slider over a session computed ahead; playing moves the
// clock in real time and loops.
$('slider').oninput = () => {
  state.mode = 'timeline';
  timeline.playing = false;
  $('play').textContent = 'Play';
  timeline.clock = ($('slider').value / 1000) * timeline.duration;
  waiting = false;
  request({ type: 'at', t: timeline.clock });
};
$('play').onclick = () => {
  state.mode = 'timeline';
  timeline.playing = !timeline.playing;
  $('play').textContent = timeline.playing ? 'Pause' : 'Play';
};
$('live').onclick = () => { state.mode = 'live'; waiting = false; };

function tick(now) {
  const dt = timeline.last ? (now - timeline.last) / 1000 : 0;
  timeline.last = now;
  if (state.scene && !state.paused) {
    if (state.mode === 'live') {
      request({ type: 'next' });
    } else if (timeline.playing) {
      timeline.clock += dt;
      if (timeline.clock > timeline.duration) timeline.clock = 0;
      $('slider').value = Math.round((timeline.clock / Math.max(timeline.duration, 1e-9)) * 1000);
      request({ type: 'at', t: timeline.clock });
    }
  }
  world.render();
  requestAnimationFrame(tick);
}

if (params.has('gltf')) {
  // A glTF file (gloved export --gltf) shown with three.js's own loader.
  state.gltf = { loaded: false };
  $('conn').textContent = 'glTF';
  loadGLTF(world, params.get('gltf'), state);
} else {
  connect();
}
requestAnimationFrame(tick);
