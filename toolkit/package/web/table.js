// The muster table: map, counters, holding boxes, and the module's own WebAssembly
// checker run after every move. No framework; state is a list of pieces.

const $ = (id) => document.getElementById(id);
const state = { data: null, pieces: [], scale: 0.75, checker: null, scenario: null, report: null };

async function loadChecker() {
  const [wasm, ruleset] = await Promise.all([
    WebAssembly.instantiateStreaming(fetch("checker.wasm"), {}),
    fetch("ruleset.json").then((r) => r.arrayBuffer()),
  ]);
  const x = wasm.instance.exports;
  const call = (bytes, fn) => {
    const ptr = x.muster_input(bytes.length);
    new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
    const status = fn();
    const out = new Uint8Array(x.memory.buffer, x.muster_output_ptr(), x.muster_output_len());
    const answer = JSON.parse(new TextDecoder().decode(out));
    if (status !== 0) throw new Error(answer.error);
    return answer;
  };
  call(new Uint8Array(ruleset), x.muster_load);
  return (request) => call(new TextEncoder().encode(JSON.stringify(request)), x.muster_check);
}

function counterOf(id) {
  return state.data.counters.find((c) => c.id === id);
}

function nearestHex(x, y) {
  let best = null;
  let dist = Infinity;
  for (const h of state.data.hexes) {
    const d = (h.x - x) ** 2 + (h.y - y) ** 2;
    if (d < dist) { dist = d; best = h; }
  }
  return best;
}

function setup(id) {
  const s = state.data.scenarios.find((x) => x.scenario === id);
  state.scenario = id;
  state.pieces = s.pieces.map((p, i) => ({
    key: i,
    unit: p.unit,
    reduced: p.reduced,
    hex: p.map === "Main Map" ? p.location : null,
    box: p.map === "Main Map" ? null : p.location,
  }));
  render();
}

function image(p) {
  const c = counterOf(p.unit);
  return p.reduced && c.back ? c.back : c.front;
}

function makeCounter(p) {
  const img = document.createElement("img");
  const size = state.data.counter;
  img.src = image(p);
  img.className = "counter";
  img.width = size;
  img.height = size;
  img.dataset.key = p.key;
  img.dataset.unit = p.unit;
  img.title = counterOf(p.unit).name;
  img.draggable = false;
  img.addEventListener("pointerdown", startDrag);
  img.addEventListener("dblclick", () => {
    if (counterOf(p.unit).back) { p.reduced = !p.reduced; render(); }
  });
  return img;
}

function render() {
  const d = state.data;
  const map = $("map");
  map.style.width = d.width + "px";
  map.style.height = d.height + "px";
  map.style.transform = `scale(${state.scale})`;
  $("viewport").style.setProperty("--scale", state.scale);
  map.querySelectorAll(".counter, .mark").forEach((e) => e.remove());
  const stacks = new Map();
  for (const p of state.pieces.filter((p) => p.hex)) {
    const list = stacks.get(p.hex) || [];
    list.push(p);
    stacks.set(p.hex, list);
  }
  const hexAt = new Map(d.hexes.map((h) => [h.label, h]));
  for (const [label, list] of stacks) {
    const h = hexAt.get(label);
    list.forEach((p, i) => {
      const img = makeCounter(p);
      img.style.left = h.x - d.counter / 2 + i * 4 + "px";
      img.style.top = h.y - d.counter / 2 - i * 4 + "px";
      img.dataset.hex = label;
      // The counter moved last stays above its neighbours' stacks.
      if (p.key === state.lastMoved) img.style.zIndex = 1000;
      map.appendChild(img);
    });
  }
  const boxes = $("boxes");
  boxes.innerHTML = "";
  for (const name of d.boxes) {
    const div = document.createElement("div");
    div.className = "box";
    div.dataset.box = name;
    const title = document.createElement("h3");
    title.textContent = name;
    div.appendChild(title);
    for (const p of state.pieces.filter((p) => p.box === name)) div.appendChild(makeCounter(p));
    boxes.appendChild(div);
  }
  check();
}

function check() {
  const request = {
    scenario: state.scenario,
    pieces: state.pieces.filter((p) => p.hex).map((p) => ({ unit: p.unit, location: p.hex })),
  };
  const report = state.checker(request);
  state.report = report;
  const list = $("findings");
  list.innerHTML = "";
  const hexAt = new Map(state.data.hexes.map((h) => [h.label, h]));
  const marked = new Set();
  for (const v of report.violations) {
    const li = document.createElement("li");
    li.className = "violation";
    li.dataset.location = v.location;
    li.textContent = `${v.location}: ${v.kind} (rule ${v.rule}): ${v.message}`;
    list.appendChild(li);
    const h = hexAt.get(v.location);
    if (h && !marked.has(v.location)) {
      marked.add(v.location);
      const ring = document.createElement("div");
      const r = state.data.hex * 0.55;
      ring.className = "mark";
      ring.dataset.location = v.location;
      ring.style.left = h.x - r + "px";
      ring.style.top = h.y - r + "px";
      ring.style.width = ring.style.height = 2 * r + "px";
      ring.title = v.message;
      $("map").appendChild(ring);
    }
  }
  if (report.violations.length === 0) {
    const li = document.createElement("li");
    li.className = "ok";
    li.textContent = "No violations.";
    list.appendChild(li);
  }
  $("status").textContent = `${report.violations.length} violation(s)`;
}

function startDrag(ev) {
  const img = ev.currentTarget;
  const p = state.pieces.find((q) => String(q.key) === img.dataset.key);
  ev.preventDefault();
  img.setPointerCapture(ev.pointerId);
  const ghost = img.cloneNode();
  ghost.classList.add("dragging");
  ghost.style.position = "fixed";
  const size = state.data.counter * (img.closest("#map") ? state.scale : 1);
  ghost.width = ghost.height = size;
  document.body.appendChild(ghost);
  const move = (e) => {
    ghost.style.left = e.clientX - size / 2 + "px";
    ghost.style.top = e.clientY - size / 2 + "px";
  };
  move(ev);
  const up = (e) => {
    img.removeEventListener("pointermove", move);
    img.removeEventListener("pointerup", up);
    ghost.remove();
    drop(p, e.clientX, e.clientY);
  };
  img.addEventListener("pointermove", move);
  img.addEventListener("pointerup", up);
}

function drop(p, cx, cy) {
  // A dropped counter lands on top of its new stack.
  state.pieces.splice(state.pieces.indexOf(p), 1);
  state.pieces.push(p);
  state.lastMoved = p.key;
  const box = document.elementsFromPoint(cx, cy).map((e) => e.closest && e.closest(".box")).find(Boolean);
  if (box) {
    p.hex = null;
    p.box = box.dataset.box;
    render();
    return;
  }
  const rect = $("map").getBoundingClientRect();
  const x = (cx - rect.left) / state.scale;
  const y = (cy - rect.top) / state.scale;
  if (x < 0 || y < 0 || x > state.data.width || y > state.data.height) { render(); return; }
  const h = nearestHex(x, y);
  if (h) { p.hex = h.label; p.box = null; }
  render();
}

// Moves the first counter `unit` standing on hex `from` to hex `to`, as a drop there does;
// false when there is no such counter or hex.
function moveCounter(unit, from, to) {
  const p = state.pieces.find((q) => q.unit === unit && q.hex === from);
  if (!p || !state.data.hexes.some((h) => h.label === to)) return false;
  state.pieces.splice(state.pieces.indexOf(p), 1);
  state.pieces.push(p);
  state.lastMoved = p.key;
  p.hex = to;
  p.box = null;
  render();
  return true;
}

// For tests and scripts: where a hex is on screen, what the checker last said, and moving a
// counter without the mouse.
window.muster = {
  state,
  move: moveCounter,
  hexOnScreen(label) {
    const h = state.data.hexes.find((x) => x.label === label);
    const rect = $("map").getBoundingClientRect();
    return { x: rect.left + h.x * state.scale, y: rect.top + h.y * state.scale };
  },
  scrollTo(label) {
    const h = state.data.hexes.find((x) => x.label === label);
    const v = $("viewport");
    v.scrollLeft = h.x * state.scale - v.clientWidth / 2;
    v.scrollTop = h.y * state.scale - v.clientHeight / 2;
  },
};

async function main() {
  state.data = await fetch("data.json").then((r) => r.json());
  state.checker = await loadChecker();
  const select = $("scenario");
  for (const s of state.data.scenarios) {
    const o = document.createElement("option");
    o.value = s.scenario;
    o.textContent = s.title;
    select.appendChild(o);
  }
  select.addEventListener("change", () => setup(select.value));
  $("zoom").addEventListener("change", (e) => { state.scale = Number(e.target.value); render(); });
  const map = $("map");
  for (const b of state.data.boards) {
    const img = document.createElement("img");
    img.className = "board";
    img.src = b.image;
    img.style.left = b.x + "px";
    img.style.top = b.y + "px";
    img.width = b.width;
    img.height = b.height;
    map.appendChild(img);
  }
  if (state.data.scenarios.length) setup(state.data.scenarios[0].scenario);
  document.body.dataset.ready = "true";
}

main().catch((e) => { $("status").textContent = "error: " + e.message; document.body.dataset.ready = "error"; });
