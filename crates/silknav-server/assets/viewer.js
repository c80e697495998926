// The silknav map viewer: tiles from /api/tile drawn on a canvas, region borders and the
// tools' lines drawn over them, queries to /api/*. A dungeon floor chosen in the map list
// replaces the world: its picture from /api/dungeon/ID/FLOOR, in the dungeon's own
// coordinates, and every query asks inside that dungeon, at the floor's height.
// Hand-written, no dependencies, no build.
"use strict";

(() => {
  const REGION = 1920;
  const canvas = document.getElementById("map");
  const ctx = canvas.getContext("2d");
  const hoverBox = document.getElementById("hover");
  const result = document.getElementById("result");

  // The view: the world point at the canvas centre and the zoom in CSS pixels per unit.
  const view = { x: 0, z: 0, ppu: 0.1 };
  let regions = [];          // [{region, x, z, bounds}]
  let regionSet = new Set(); // "x,z" of each region
  let levels = [-1, 0, 1, 2, 3, 4, 5];
  const images = new Map();  // tile URL -> Image
  let clicks = [];           // the tool's points, world [x, z]
  let drawing = null;        // {kind: "path"|"los", points: [[x, z]...], hit: [x, z]|null}
  let worldView = null;      // the world's view, kept while a dungeon floor is shown
  // The dungeon floor shown instead of the world: {id, floor, y, bounds: [x0, z0, x1, z1],
  // image}, or null for the world.
  let dungeon = null;

  const toScreen = (x, z) => [
    (x - view.x) * view.ppu + canvas.clientWidth / 2,
    (view.z - z) * view.ppu + canvas.clientHeight / 2,
  ];
  const toWorld = (sx, sy) => [
    view.x + (sx - canvas.clientWidth / 2) / view.ppu,
    view.z - (sy - canvas.clientHeight / 2) / view.ppu,
  ];

  // A query's body, placed in the dungeon floor shown (if any): its id, and the floor's
  // lowest height as the walker's height, so that cells are picked on that floor.
  function placed(body) {
    return dungeon ? { ...body, dungeon: dungeon.id, y: dungeon.y } : body;
  }

  async function api(path, body) {
    const response = await fetch("/api/" + path, body === undefined ? {} : {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(json.message || response.statusText);
    return json;
  }

  function layers() {
    return [...document.querySelectorAll("input[name=layer]:checked")].map((i) => i.value).join(",");
  }

  // The most detailed level whose tiles are not shown larger than drawn: a tile of level L
  // has 0.2 / 2^L pixels per unit.
  function level() {
    const l = Math.floor(Math.log2(0.2 / view.ppu));
    return Math.max(levels[0], Math.min(levels[levels.length - 1], l));
  }

  function blockHasRegion(side, tx, tz) {
    for (let x = tx * side; x < (tx + 1) * side; x++)
      for (let z = tz * side; z < (tz + 1) * side; z++)
        if (regionSet.has(x + "," + z)) return true;
    return false;
  }

  let pending = 0;
  function tile(url) {
    let img = images.get(url);
    if (!img) {
      img = new Image();
      pending++;
      const done = () => { pending--; schedule(); };
      img.onload = done;
      img.onerror = done;
      img.src = url;
      images.set(url, img);
    }
    return img;
  }

  function draw() {
    const dpr = window.devicePixelRatio || 1;
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
      canvas.width = Math.round(w * dpr);
      canvas.height = Math.round(h * dpr);
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#f6f4ee";
    ctx.fillRect(0, 0, w, h);
    if (dungeon) {
      const [x0, z0, x1, z1] = dungeon.bounds;
      const [sx, sy] = toScreen(x0, z1);
      ctx.imageSmoothingEnabled = view.ppu < 0.4;
      if (dungeon.image) ctx.drawImage(dungeon.image, sx, sy, (x1 - x0) * view.ppu, (z1 - z0) * view.ppu);
      drawTools();
      return;
    }
    if (!regions.length) return;

    const l = level();
    const side = 2 ** Math.max(l, 0);
    const units = side * REGION;
    const [x0, z1] = toWorld(0, 0), [x1, z0] = toWorld(w, h);
    const list = layers();
    ctx.imageSmoothingEnabled = view.ppu < 0.2 / 2 ** l * 1.01;
    for (let tx = Math.max(0, Math.floor(x0 / units)); tx * units < x1 && tx < 256 / side; tx++) {
      for (let tz = Math.max(0, Math.floor(z0 / units)); tz * units < z1 && tz < 256 / side; tz++) {
        if (!blockHasRegion(side, tx, tz)) continue;
        const img = tile(`/api/tile/${l}/${tx}/${tz}?layers=${list}`);
        const [sx, sy] = toScreen(tx * units, (tz + 1) * units);
        const size = units * view.ppu;
        if (img.complete && img.naturalWidth) ctx.drawImage(img, sx, sy, size, size);
      }
    }

    if (document.getElementById("borders").checked) {
      ctx.strokeStyle = "#ec3cec";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (const r of regions) {
        const [ax, ay] = toScreen(r.bounds.x0, r.bounds.z1);
        ctx.rect(ax, ay, REGION * view.ppu, REGION * view.ppu);
      }
      ctx.stroke();
    }
    drawTools();
  }

  // The tool's clicks and its answer's line.
  function drawTools() {
    for (const p of clicks) mark(p, "#1c1c20");
    if (drawing) {
      const pts = drawing.points.map(([x, z]) => toScreen(x, z));
      ctx.lineWidth = 3;
      ctx.strokeStyle = drawing.kind === "path" ? "#00b7ff" : drawing.hit ? "#e02828" : "#18b040";
      ctx.beginPath();
      pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
      ctx.stroke();
      if (drawing.kind === "path") for (const p of drawing.points) mark(p, "#00b7ff");
      if (drawing.hit) mark(drawing.hit, "#e02828");
    }
    document.body.dataset.tilesPending = String(pending);
  }

  function mark([x, z], colour) {
    const [sx, sy] = toScreen(x, z);
    ctx.fillStyle = colour;
    ctx.beginPath();
    ctx.arc(sx, sy, 4, 0, 2 * Math.PI);
    ctx.fill();
  }

  let scheduled = false;
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => { scheduled = false; draw(); });
  }

  const fmt = (v) => (Math.round(v * 1000) / 1000).toString();

  // Hover: the region, cell and height under the cursor; one request at a time, the latest
  // position asked next.
  let hoverBusy = false, hoverNext = null;
  async function hover(x, z) {
    if (hoverBusy) { hoverNext = [x, z]; return; }
    hoverBusy = true;
    try {
      const [cell, height] = await Promise.all([
        api("cell", placed({ x, z })), api("height", placed({ x, z })),
      ]);
      const where = cell.region === null ? "no cell" :
        `region ${cell.region} · cell ${cell.cell}` +
        (cell.object ? ` · object ${cell.object.owner}:${cell.object.uid} cell ${cell.object.cell}` : "");
      const h = height.height === null ? "no height" : `height ${height.height}`;
      hoverBox.textContent = `${fmt(x)}, ${fmt(z)} · ${where} · ${h}`;
      Object.assign(hoverBox.dataset, {
        x: String(x), z: String(z),
        region: String(cell.region), cell: String(cell.cell), height: String(height.height),
      });
    } catch (e) {
      hoverBox.textContent = "hover failed: " + e.message;
    }
    hoverBusy = false;
    if (hoverNext) { const [nx, nz] = hoverNext; hoverNext = null; hover(nx, nz); }
  }

  async function useTool(x, z) {
    if (clicks.length === 2) clicks = [];
    clicks.push([x, z]);
    drawing = null;
    schedule();
    if (clicks.length < 2) {
      result.textContent = "now click the end";
      return;
    }
    const [[x1, z1], [x2, z2]] = clicks;
    const tool = document.querySelector("input[name=tool]:checked").value;
    result.dataset.state = "busy";
    try {
      const json = await api(tool, placed({ x1, z1, x2, z2 }));
      show(tool, json, [x1, z1], [x2, z2]);
    } catch (e) {
      result.textContent = `${tool} failed: ${e.message}`;
    }
    result.dataset.state = "done";
    schedule();
  }

  function show(tool, json, a, b) {
    Object.assign(result.dataset, { tool, x1: a[0], z1: a[1], x2: b[0], z2: b[1] });
    result.replaceChildren();
    const line = document.createElement("div");
    result.append(line);
    if (tool === "path") {
      result.dataset.length = String(json.length);
      if (json.length === null) {
        line.textContent = "no path: " + json.error;
        return;
      }
      drawing = { kind: "path", points: json.waypoints, hit: null };
      line.innerHTML = `<b>${fmt(json.length)}</b> units, ${json.waypoints.length} waypoints`;
      const list = document.createElement("ol");
      json.waypoints.forEach(([x, z], k) => {
        const item = document.createElement("li");
        // The height a walker walking the legs with move stands at there.
        const height = json.heights[k];
        item.textContent = `${fmt(x)}, ${fmt(z)}` + (height === null ? "" : `, height ${fmt(height)}`);
        list.append(item);
      });
      result.append(list);
    } else {
      result.dataset.clear = String(json.clear);
      if (json.clear === null) {
        line.textContent = "cannot cast: " + json.error;
      } else if (json.clear) {
        drawing = { kind: "los", points: [a, b], hit: null };
        line.innerHTML = "<b>clear</b>";
      } else {
        drawing = { kind: "los", points: [a, [json.x, json.z]], hit: [json.x, json.z] };
        line.innerHTML = `<b>blocked</b> at ${fmt(json.x)}, ${fmt(json.z)} (t = ${fmt(json.t)})`;
      }
    }
  }

  // Pan by dragging, zoom by the wheel about the cursor; a press that does not move is a
  // click for the tool.
  let drag = null;
  canvas.addEventListener("mousedown", (e) => {
    drag = { sx: e.offsetX, sy: e.offsetY, x: view.x, z: view.z, moved: false };
  });
  window.addEventListener("mouseup", (e) => {
    if (drag && !drag.moved && e.target === canvas) {
      const [x, z] = toWorld(e.offsetX, e.offsetY);
      useTool(x, z);
    }
    drag = null;
  });
  canvas.addEventListener("mousemove", (e) => {
    if (drag) {
      const dx = e.offsetX - drag.sx, dy = e.offsetY - drag.sy;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.moved) {
        view.x = drag.x - dx / view.ppu;
        view.z = drag.z + dy / view.ppu;
        schedule();
      }
      return;
    }
    const [x, z] = toWorld(e.offsetX, e.offsetY);
    hover(x, z);
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [x, z] = toWorld(e.offsetX, e.offsetY);
    view.ppu = Math.min(2, Math.max(0.0005, view.ppu * Math.pow(1.0015, -e.deltaY)));
    const [nx, nz] = toWorld(e.offsetX, e.offsetY);
    view.x += x - nx;
    view.z += z - nz;
    schedule();
  }, { passive: false });
  document.querySelectorAll("input").forEach((i) => i.addEventListener("change", schedule));
  window.addEventListener("resize", schedule);

  // Shows the map the list names: "" for the world, "ID:FLOOR" for a dungeon floor.
  async function showMap(value) {
    clicks = [];
    drawing = null;
    result.textContent = "click a start, then an end";
    if (!value) {
      dungeon = null;
      if (worldView) Object.assign(view, worldView);
      document.getElementById("layers").disabled = false;
      document.body.dataset.map = "world";
      schedule();
      return;
    }
    const [id, floor] = value.split(":").map(Number);
    const option = document.querySelector(`#map-select option[value="${value}"]`);
    const response = await fetch(`/api/dungeon/${id}/${floor}`);
    if (!response.ok) throw new Error((await response.json()).message);
    const bounds = response.headers.get("x-map-bounds").split(" ").map(Number);
    const image = await createImageBitmap(await response.blob());
    if (!dungeon) worldView = { ...view };
    dungeon = { id, floor, y: Number(option.dataset.y), bounds, image };
    const [x0, z0, x1, z1] = bounds;
    view.x = (x0 + x1) / 2;
    view.z = (z0 + z1) / 2;
    view.ppu = 0.95 * Math.min(canvas.clientWidth / (x1 - x0), canvas.clientHeight / (z1 - z0));
    document.getElementById("layers").disabled = true;
    document.body.dataset.map = value;
    schedule();
  }

  document.getElementById("map-select").addEventListener("change", (e) => {
    showMap(e.target.value).catch((err) => { result.textContent = "map failed: " + err.message; });
  });

  async function start() {
    const [health, list, dungeons] = await Promise.all([api("health"), api("regions"), api("dungeons")]);
    const select = document.getElementById("map-select");
    for (const d of dungeons) {
      for (const f of d.floors) {
        const option = document.createElement("option");
        option.value = `${d.id}:${f.floor}`;
        option.dataset.y = String(f.heights[0]);
        option.textContent = `dungeon ${d.id} ${d.name} · floor ${f.floor}` + (f.name ? ` (${f.name})` : "");
        select.append(option);
      }
    }
    document.getElementById("maps").hidden = dungeons.length === 0;
    levels = health.tile_levels;
    regions = list.regions;
    regionSet = new Set(regions.map((r) => r.x + "," + r.z));
    const b = list.bounds;
    document.getElementById("world").textContent = b ?
      `${list.count} regions · ${health.objects} objects · x ${b.x0}..${b.x1}, z ${b.z0}..${b.z1}` :
      "no regions";
    if (b) {
      view.x = (b.x0 + b.x1) / 2;
      view.z = (b.z0 + b.z1) / 2;
      view.ppu = 0.95 * Math.min(canvas.clientWidth / (b.x1 - b.x0), canvas.clientHeight / (b.z1 - b.z0));
    }
    document.body.dataset.ready = "true";
    schedule();
  }

  // For tests and scripts: the view and its mapping between screen and world.
  window.silknav = { view, toScreen, toWorld, redraw: schedule, showMap };
  start().catch((e) => { document.getElementById("world").textContent = "failed: " + e.message; });
})();
