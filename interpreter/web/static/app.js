// Cairn's web page: set up a game, play it by clicking, step through records.
// Plain JavaScript, no build step. Everything shown comes from the server's JSON view of
// one seat; the page keeps the token of the game or replay it shows (in its address) and,
// for the games started here, the seat's secret (in localStorage, never in the address:
// the address of a game lets whoever has it watch, the secret lets them play).
"use strict";

const $ = (sel) => document.querySelector(sel);
let games = [];           // the catalogue
let current = null;       // the view shown on the play page
let replay = null;        // the replay shown: {token, step}
let seenLog = {};         // table token -> log lines already seen (to mark new ones)
let uploaded = null;      // a file of many records: {name, records}

// ---- the seats' secrets: table token -> secret, for the games started in this browser ----
function secrets() {
  try { return JSON.parse(localStorage.getItem("cairn-seats") || "{}") || {}; } catch (e) { return {}; }
}
function keepSecret(table, secret) {
  const all = secrets();
  if (secret) all[table] = secret; else delete all[table];
  try { localStorage.setItem("cairn-seats", JSON.stringify(all)); } catch (e) { /* private mode: this tab only */ }
}
function seatHeader(table) {
  const secret = secrets()[table];
  return secret ? {"X-Cairn-Seat": secret} : {};
}
function seatsHeader() {
  return {"X-Cairn-Seats": Object.entries(secrets()).slice(-100).map(([t, s]) => `${t}:${s}`).join(" ")};
}

async function call(path, data, headers = {}) {
  const opts = data === undefined ? {headers} :
    {method: "POST", headers: {...headers, "Content-Type": "application/json"}, body: JSON.stringify(data)};
  const res = await fetch(path, opts);
  let out;
  try { out = await res.json(); } catch (e) { out = {error: `the server answered ${res.status}`}; }
  if (!res.ok) { const err = new Error(out.error || `the server answered ${res.status}`); err.status = res.status; throw err; }
  return out;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function problem(text) {
  const p = $("#problem");
  p.textContent = text || "";
  p.hidden = !text;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

function show(page) {
  for (const id of ["setup", "play", "replays"]) $("#" + id).hidden = id !== page;
}

// ---- set-up ---------------------------------------------------------------------------
async function loadGames() {
  const out = await call("/api/games");
  games = out.games;
  const sel = $("#game");
  sel.replaceChildren(...games.filter((g) => !g.error).map((g) => el("option", {value: g.id}, g.name)));
  if (out.default) sel.value = out.default;
  gameChanged();
}

function gameChanged() {
  const g = games.find((x) => x.id === $("#game").value);
  if (!g) return;
  const box = $("#variants");
  box.replaceChildren(el("legend", {}, "Variants"));
  for (const [id, name] of Object.entries(g.variants)) {
    box.append(el("label", {class: "check"}, el("input", {type: "checkbox", value: id}), " " + name));
  }
  box.hidden = Object.keys(g.variants).length === 0;
  const players = $("#players");
  players.min = g.players[0]; players.max = g.players[1];
  players.value = Math.min(Math.max(2, g.players[0]), g.players[1]);
  seatsChanged();
}

function seatsChanged() {
  const g = games.find((x) => x.id === $("#game").value);
  const n = Math.min(parseInt($("#players").value, 10) || 1, g ? g.seats.length : 1);
  const seat = $("#seat");
  const keep = seat.value;
  seat.replaceChildren(...Array.from({length: n}, (_, i) => el("option", {value: i}, `${g.seats[i]} (seat ${i + 1})`)));
  if (keep && keep < n) seat.value = keep;
}

async function start(ev) {
  ev.preventDefault();
  const variants = [...document.querySelectorAll("#variants input:checked")].map((i) => i.value);
  const seed = $("#seed").value.trim();
  try {
    const view = await call("/api/tables", {game: $("#game").value, variants, players: parseInt($("#players").value, 10),
      seat: parseInt($("#seat").value, 10), bot: $("#bot").value, seed: seed === "" ? null : parseInt(seed, 10)});
    keepSecret(view.table, view.secret);
    location.hash = "play/" + view.table;
  } catch (e) { problem(e.message); }
}

async function myTables() {
  // the games this browser holds secrets for that the server still has (the others are forgotten)
  const out = await call("/api/tables", undefined, seatsHeader());
  const held = new Set(out.tables.map((t) => t.table));
  for (const t of Object.keys(secrets())) if (!held.has(t)) keepSecret(t, null);
  return out;
}

async function listTables() {
  const out = await myTables();
  $("#tables").replaceChildren(...(out.tables.length ? out.tables.map((t) => el("li", {},
    el("a", {href: "#play/" + t.table}, `${t.game}${t.variants.length ? " (" + t.variants.join(", ") + ")" : ""}`),
    ` ${plural(t.players, "player")}, you are ${t.seat_name}, ${plural(t.choices, "choice")} made${t.over ? ", over" : ""}`))
    : [el("li", {class: "hint"}, "none yet")]));
}

// ---- one seat's view (shared by the play page and the replay viewer) -------------------------
function drawView(prefix, view, clickable) {
  const pic = $(`#${prefix}-picture`);
  const textBoard = $(`#${prefix}-text-board`);
  const parts = $(`#${prefix}-parts`);
  if (view.svg) {
    // the picture, and the same view as text (the terminal's) folded away below it
    pic.innerHTML = view.svg;
    pic.hidden = false;
    pic.parentElement.querySelector(".zoom").hidden = false;
    textBoard.hidden = false;
    textBoard.querySelector("pre").innerHTML = view.board_html + view.parts_html;
    parts.hidden = true;
  } else {
    // no picture: the text board is the picture
    pic.innerHTML = view.board_html ? `<pre class="term">${view.board_html}</pre>` : "";
    pic.hidden = !view.board_html;
    textBoard.hidden = true;
    pic.parentElement.querySelector(".zoom").hidden = true;
    parts.innerHTML = view.parts_html;
    parts.hidden = false;
  }
  drawDecision($(`#${prefix}-decision`), view, clickable);
  markOptions(pic, view, clickable);
}

function drawDecision(box, view, clickable) {
  const d = view.decision;
  box.replaceChildren();
  if (view.result) box.append(el("p", {class: "result"}, view.result));
  if (!d) { if (!view.result) box.append(el("p", {class: "hint"}, "no decision pending")); return; }
  if (!d.mine) { box.append(el("p", {class: "hint"}, `waiting for ${d.name}`)); return; }
  box.append(el("h3", {class: "prompt"}, `${d.name}: ${d.prompt}`));
  const list = el("div", {class: "options", id: clickable ? "options" : ""});
  d.options.forEach((o, i) => {
    const b = el("button", {type: "button", class: "option" + (d.chosen === i ? " chosen" : ""), "data-index": i},
      el("span", {class: "key"}, String(i + 1)), " " + o.label + (o.map ? ` (map ${o.map})` : "") +
      (d.chosen === i ? "  \u2190 chosen next" : ""));
    if (clickable) b.addEventListener("click", () => choose(i)); else b.disabled = true;
    list.append(b);
  });
  box.append(list);
  for (const why of d.not_offered || []) box.append(el("p", {class: "why"}, "not offered: " + why));
}

function markOptions(pic, view, clickable) {
  // elements of the picture that stand for an option: clicking one chooses it
  const mine = view.decision && view.decision.mine;
  for (const e of pic.querySelectorAll("[data-option]")) {
    if (clickable && mine) {
      e.classList.add("clickable");
      e.addEventListener("click", () => choose(parseInt(e.dataset.option, 10)));
    } else if (view.decision && view.decision.chosen === parseInt(e.dataset.option, 10)) {
      e.classList.add("chosen");
    }
  }
}

function logLine(t, fresh) {
  // a line of many lines is a drawing (a card, a sheet): kept in a fixed-width font
  return el("li", {class: (fresh ? "new" : "") + (t.includes("\n") ? " drawn" : "")}, t);
}

function drawLog(list, lines, seen) {
  // the lines already there stay when the log only grew (a long log is not drawn again
  // at every choice); after an undo or on another page it is drawn whole
  const shown = list.children.length;
  const grew = shown > 0 && shown <= lines.length && list.firstElementChild.textContent === lines[0] &&
    list.lastElementChild.textContent === lines[shown - 1];
  if (grew) {
    for (const li of list.querySelectorAll("li.new")) li.classList.remove("new");
    list.append(...lines.slice(shown).map((t, i) => logLine(t, shown + i >= seen)));
  } else {
    list.replaceChildren(...lines.map((t, i) => logLine(t, i >= seen)));
  }
  list.scrollTop = list.scrollHeight;
}

// ---- playing ----------------------------------------------------------------------------
function showTable(view) {
  current = view;
  const play = $("#play");
  play.dataset.at = view.at;
  play.dataset.terminal = view.terminal;
  $("#play-title").textContent = view.game + (view.variants.length ? ` (${view.variants.join(", ")})` : "");
  const watching = view.seat === null;
  const you = watching ? "a spectator" : view.players[view.seat];
  $("#play-status").textContent = view.terminal ? `game over; you were ${you}` :
    `${you}${watching ? "" : " (you)"} · turn ${view.turn} · ${plural(view.at, "choice")} made`;
  $("#undo").disabled = !view.can_undo;
  // the record holds the seed (the whole deal): the server gives it once the game is over
  $("#record-link").hidden = !view.terminal;
  $("#record-link").href = `/api/tables/${view.table}/record`;
  $("#record-link").download = `${view.game_id}-record.json`;
  drawView("play", view, !watching);
  const seen = seenLog[view.table] === undefined ? view.log.length : Math.min(seenLog[view.table], view.log.length);
  drawLog($("#play-log"), view.log, seen);
  seenLog[view.table] = view.log.length;
  document.title = `${view.game} · Cairn`;
}

async function openTable(token) {
  show("play");
  try { showTable(await call(`/api/tables/${token}`, undefined, seatHeader(token))); problem(""); }
  catch (e) {
    if (e.status === 404 || e.status === 410) keepSecret(token, null);   // closed: say why, forget it
    problem(e.message);
  }
}

async function choose(i) {
  if (!current || current.busy) return;
  current.busy = true;
  $("#play").classList.add("busy");
  try {
    showTable(await call(`/api/tables/${current.table}/choose`, {option: i, at: current.at}, seatHeader(current.table)));
    problem("");
  } catch (e) {
    problem(e.message);
    if (e.status === 409) await openTable(current.table);
    if (e.status === 404 || e.status === 410) keepSecret(current.table, null);   // closed: the message says why
  } finally {
    $("#play").classList.remove("busy");
    if (current) current.busy = false;
  }
}

async function undo() {
  try { const v = await call(`/api/tables/${current.table}/undo`, {}, seatHeader(current.table)); seenLog[v.table] = v.log.length; showTable(v); problem(""); }
  catch (e) { problem(e.message); }
}

async function tableReplay(token) {
  try { const r = await call(`/api/tables/${token}/replay`, {}, seatHeader(token)); location.hash = "replay/" + r.replay; }
  catch (e) { problem(e.message); }
}

function toReplay() { return tableReplay(current.table); }

// ---- replays ----------------------------------------------------------------------------
async function listReplays() {
  const out = await call("/api/replays");
  const items = [];
  for (const t of (await myTables()).tables) {
    items.push(el("li", {}, el("a", {href: "#", onclick: (ev) => { ev.preventDefault(); tableReplay(t.table); }},
      `${t.game} (played here)`), ` ${plural(t.players, "player")}, ${plural(t.choices, "choice")}${t.over ? "" : " so far"}`));
  }
  for (const r of out.library) {
    items.push(el("li", {}, el("a", {href: "#", onclick: (ev) => { ev.preventDefault(); openRecord({library: r.library}); }},
      `${r.game} (record ${r.library + 1})`), ` ${plural(r.players, "player")}, seed ${r.seed}, ${plural(r.steps, "choice")}`));
  }
  if (uploaded) {
    uploaded.records.forEach((r, i) => items.push(el("li", {}, el("a", {href: "#", onclick: (ev) => {
      ev.preventDefault(); openRecord({record: r}); }}, `${r.game} (${uploaded.name}, record ${i + 1})`),
      ` ${plural(r.players, "player")}, seed ${r.seed}, ${plural((r.actions || []).length, "choice")}`)));
  }
  $("#replay-list").replaceChildren(...(items.length ? items : [el("li", {class: "hint"}, "no records open yet")]));
}

async function openRecord(body) {
  try { const r = await call("/api/replays", body); location.hash = "replay/" + r.replay; problem(""); }
  catch (e) { problem(e.message); }
}

async function upload() {
  const file = $("#upload").files[0];
  if (!file) return;
  const text = await file.text();
  let records;
  try { records = [JSON.parse(text)]; }
  catch (e) {
    try { records = text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)); }
    catch (e2) { problem(`${file.name} is not JSON: ${e2.message}`); return; }
  }
  $("#upload").value = "";          // the same file may be opened again
  if (records.length === 1) return openRecord({record: records[0]});
  // a file of many records (simulate --records): each one to pick
  uploaded = {name: file.name, records: records.slice(0, 500)};
  await listReplays();
}

async function openReplay(token) {
  show("replays");
  await listReplays();
  const seat = $("#replay-seat");
  replay = {token, step: 0};
  try {
    const v = await call(`/api/replays/${token}?step=0&seat=spectator`);
    // while its game is on, a replay shows only the seat that opened it (or a spectator)
    seat.replaceChildren(el("option", {value: "spectator"}, "a spectator"),
      ...v.players.map((p, i) => el("option", {value: i}, p)).filter((o, i) => v.seats.includes(i)));
    const slider = $("#slider");
    slider.max = v.steps;
    slider.value = 0;
    $("#viewer").hidden = false;
    showStep(v);
  } catch (e) { problem(e.message); $("#viewer").hidden = true; }
}

function showStep(v) {
  replay.step = v.step;
  $("#viewer").dataset.step = v.step;
  $("#replay-title").textContent = v.game + (v.seed === null ? "" : `: seed ${v.seed}`) + (v.result ? "" : " (unfinished)");
  $("#step-label").textContent = `${v.step} of ${plural(v.steps, "choice")} · turn ${v.turn}`;
  drawView("replay", v, false);
  drawLog($("#replay-log"), v.log, v.log.length);
}

let stepTimer = null;
let stepAsked = 0;        // the latest step asked for: older answers are dropped
function stepTo(k) {
  const slider = $("#slider");
  k = Math.max(0, Math.min(parseInt(slider.max, 10), k));
  slider.value = k;
  replay.step = k;
  const asked = ++stepAsked;
  clearTimeout(stepTimer);
  stepTimer = setTimeout(async () => {
    try {
      const v = await call(`/api/replays/${replay.token}?step=${k}&seat=${$("#replay-seat").value}`);
      if (asked === stepAsked) { showStep(v); problem(""); }
    } catch (e) { problem(e.message); }
  }, 30);
}

// ---- keys, as in the terminal: 1-9 choose, u undoes; arrows step a replay ------------------
function keys(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || /^(INPUT|SELECT|TEXTAREA)$/.test(ev.target.tagName)) return;
  if (!$("#play").hidden && current && current.decision && current.decision.mine) {
    const n = parseInt(ev.key, 10);
    if (n >= 1 && n <= Math.min(9, current.decision.options.length)) { ev.preventDefault(); choose(n - 1); }
    else if (ev.key === "u" && current.can_undo) { ev.preventDefault(); undo(); }
  } else if (!$("#viewer").hidden && !$("#replays").hidden && replay) {
    if (ev.key === "ArrowRight") stepTo(replay.step + 1);
    else if (ev.key === "ArrowLeft") stepTo(replay.step - 1);
  }
}

// ---- routing ----------------------------------------------------------------------------
async function route() {
  problem("");
  const [page, token] = location.hash.slice(1).split("/");
  if (page === "play" && token) return openTable(token);
  if (page === "replay" && token) return openReplay(token);
  if (page === "replays") { show("replays"); $("#viewer").hidden = true; return listReplays(); }
  show("setup");
  await listTables();
}

window.addEventListener("DOMContentLoaded", async () => {
  $("#game").addEventListener("change", gameChanged);
  $("#players").addEventListener("input", seatsChanged);
  $("#setup-form").addEventListener("submit", start);
  $("#undo").addEventListener("click", undo);
  $("#to-replay").addEventListener("click", toReplay);
  $("#upload").addEventListener("change", upload);
  $("#slider").addEventListener("input", () => stepTo(parseInt($("#slider").value, 10)));
  $("#prev").addEventListener("click", () => stepTo(replay.step - 1));
  $("#next").addEventListener("click", () => stepTo(replay.step + 1));
  $("#replay-seat").addEventListener("change", () => stepTo(replay.step));
  window.addEventListener("hashchange", route);
  document.addEventListener("keydown", keys);
  for (const b of document.querySelectorAll(".zoom")) {
    b.addEventListener("click", () => {
      const full = $("#" + b.dataset.for).classList.toggle("full");
      b.textContent = full ? "fit to page" : "full size";
    });
  }
  try { await loadGames(); } catch (e) { problem(e.message); }
  await route();
  document.body.dataset.ready = "1";
});
