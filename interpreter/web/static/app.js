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

// ---- the seats' secrets: table token -> {seat: secret}, for the seats played in this browser ----
// (several seats of one table when several people play at this computer)
function secrets() {
  let all;
  try { all = JSON.parse(localStorage.getItem("cairn-seats") || "{}") || {}; } catch (e) { all = {}; }
  for (const [t, v] of Object.entries(all)) if (typeof v === "string") all[t] = {"?": v};   // an older page's
  return all;
}
function saveSecrets(all) {
  try { localStorage.setItem("cairn-seats", JSON.stringify(all)); } catch (e) { /* private mode: this tab only */ }
}
function keepSecret(table, secret, seat = "?") {
  const all = secrets();
  if (secret) all[table] = {...(all[table] || {}), [seat]: secret}; else delete all[table];
  saveSecrets(all);
}
let shownSeat = {};       // table token -> the seat whose view this page shows (of those held here)
function heldSeats(table) { return Object.keys(secrets()[table] || {}); }
function seatHeader(table) {
  const held = secrets()[table] || {};
  const seat = shownSeat[table] !== undefined && held[shownSeat[table]] ? shownSeat[table] : Object.keys(held)[0];
  return seat !== undefined ? {"X-Cairn-Seat": held[seat]} : {};
}
function seatsHeader() {
  const pairs = [];
  for (const [t, held] of Object.entries(secrets())) for (const s of Object.values(held)) pairs.push(`${t}:${s}`);
  return {"X-Cairn-Seats": pairs.slice(-100).join(" ")};
}
function links() {
  try { return JSON.parse(localStorage.getItem("cairn-links") || "{}") || {}; } catch (e) { return {}; }
}
function keepLinks(table, list) {
  const all = links();
  if (list && list.length) all[table] = list; else delete all[table];
  try { localStorage.setItem("cairn-links", JSON.stringify(all)); } catch (e) { /* this tab only */ }
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

const SEAT_KINDS = [["here", "person here"], ["link", "person by link"], ["random", "bot: random"],
  ["first", "bot: first option"], ["greedy", "bot: greedy"], ["mcts", "bot: mcts (search)"]];

function seatsChanged() {
  const g = games.find((x) => x.id === $("#game").value);
  const n = Math.min(parseInt($("#players").value, 10) || 1, g ? g.seats.length : 1);
  const box = $("#seats");
  const kept = [...box.querySelectorAll("select.seat-kind")].map((e) => e.value);
  const playouts = [...box.querySelectorAll("input.playouts")].map((e) => e.value);
  box.replaceChildren(el("legend", {}, "Seats: a person or a bot each"));
  for (let i = 0; i < n; i++) {
    const kind = el("select", {class: "seat-kind", id: `seat-${i}`, "aria-label": `seat ${i + 1}`},
      ...SEAT_KINDS.map(([v, t]) => el("option", {value: v}, t)));
    kind.value = kept[i] || (i === 0 ? "here" : "random");
    const n_ = el("input", {class: "playouts", id: `playouts-${i}`, type: "number", min: 1, max: 2000,
      value: playouts[i] || 30, title: "playouts a decision", "aria-label": `playouts of seat ${i + 1}`});
    const row = el("label", {class: "seat"}, `${g.seats[i]} (seat ${i + 1})`, el("span", {class: "seat-pick"}, kind, n_));
    const mctsShown = () => { n_.hidden = kind.value !== "mcts"; };
    kind.addEventListener("change", mctsShown);
    mctsShown();
    box.append(row);
  }
}

function seatSpecs() {
  // each seat's spec for the server ("human" or a bot's), and where each person plays
  const kinds = [...document.querySelectorAll("#seats select.seat-kind")].map((e) => e.value);
  const specs = kinds.map((k, i) => k === "here" || k === "link" ? "human" :
    k === "mcts" ? `mcts:${Math.max(1, parseInt($(`#playouts-${i}`).value, 10) || 30)}` : k);
  return {kinds, specs};
}

async function start(ev) {
  ev.preventDefault();
  const variants = [...document.querySelectorAll("#variants input:checked")].map((i) => i.value);
  const seed = $("#seed").value.trim();
  const {kinds, specs} = seatSpecs();
  const mine = kinds.indexOf("here") >= 0 ? kinds.indexOf("here") : kinds.indexOf("link");
  if (mine < 0) { problem("give at least one seat to a person"); return; }
  try {
    const view = await call("/api/tables", {game: $("#game").value, variants, players: kinds.length,
      seat: mine, seats: specs, seed: seed === "" ? null : parseInt(seed, 10)});
    handOut(view, (p) => kinds[p] === "here");
    location.hash = "play/" + view.table;
  } catch (e) { problem(e.message); }
}

function handOut(view, here) {
  // the starter's secret, the other people's: kept here (a person at this computer) or as links
  keepSecret(view.table, view.secret, String(view.seat));
  shownSeat[view.table] = String(view.seat);
  const out = [];
  for (const [p, secret] of Object.entries(view.secrets || {})) {
    if (here(parseInt(p, 10))) keepSecret(view.table, secret, p);
    else out.push({seat: p, name: view.players[p], url: `${location.origin}/#join/${view.table}/${p}/${secret}`});
  }
  keepLinks(view.table, out);
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
  const tools = pic.parentElement.querySelector(".tools");
  if (view.svg) {
    // the picture, and the same view as text (the terminal's) folded away below it
    pic.innerHTML = view.svg;
    pic.hidden = false;
    tools.hidden = false;
    textBoard.hidden = false;
    textBoard.querySelector("pre").innerHTML = view.board_html + view.parts_html;
    parts.hidden = true;
    tips(pic);
    zoom(pic, view.game_id);
  } else {
    // no picture: the text board is the picture
    pic.innerHTML = view.board_html ? `<pre class="term">${view.board_html}</pre>` : "";
    pic.hidden = !view.board_html;
    textBoard.hidden = true;
    tools.hidden = true;
    parts.innerHTML = view.parts_html;
    parts.hidden = false;
  }
  drawLegend($(`#${prefix}-legend`), view.svg ? (view.legend || []).filter((i) => i.kind !== "seat" || parseInt(i.key, 10) < view.players.length) : []);
  drawDecision($(`#${prefix}-decision`), view, clickable);
  markOptions(pic, view, clickable);
}

function drawLegend(box, items) {
  // the picture's colours and icons, from the game's data (the server's legend)
  box.replaceChildren(...items.map((i) => el("span", {class: `key-item ${i.kind}`, "data-kind": i.kind},
    i.colour ? el("span", {class: i.kind === "seat" || i.kind === "piece" ? "swatch disc" : "swatch", style: `background:${i.colour}`}) : "",
    (i.kind === "seat" ? "" : "") + i.label)));
  box.hidden = items.length === 0;
}

// ---- the picture: its own tooltips (a card's whole text and abilities), zoom and pan -------------
function tips(pic) {
  // each element's <title> becomes its tooltip here (the browser's own shows late and cut)
  for (const t of pic.querySelectorAll("svg title")) {
    if (t.parentElement) t.parentElement.dataset.tip = t.textContent;
    t.remove();
  }
}

function showTip(ev) {
  const target = ev.target.closest && ev.target.closest("[data-tip]");
  const tip = $("#tip");
  if (!target) { tip.hidden = true; return; }
  tip.textContent = target.dataset.tip;
  tip.hidden = false;
  const w = tip.offsetWidth, h = tip.offsetHeight;
  const x = Math.min(ev.clientX + 14, window.innerWidth - w - 6), y = ev.clientY + 16 + h > window.innerHeight ? ev.clientY - h - 10 : ev.clientY + 16;
  tip.style.left = `${Math.max(4, x)}px`;
  tip.style.top = `${Math.max(4, y)}px`;
}

const zooms = {};        // game id -> the scale the person chose (null: the default)
function natural(svg) { return parseFloat(svg.getAttribute("width")) || svg.viewBox.baseVal.width; }
function fitScale(pic, svg) { return Math.min(1, (pic.clientWidth - 16) / natural(svg)); }
function zoom(pic, game, scale) {
  // a board too wide to read fitted to the page is shown at its own size, to pan by dragging
  const svg = pic.querySelector("svg");
  if (!svg) return;
  if (scale !== undefined) zooms[game] = scale;
  const fit = fitScale(pic, svg);
  const s = zooms[game] ?? (fit >= 0.8 ? fit : 1);
  svg.style.width = `${natural(svg) * s}px`;
  svg.style.maxWidth = "none";
  pic.dataset.scale = s.toFixed(3);
}

function pannable(pic) {
  let drag = null;
  pic.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0 || ev.target.closest("[data-option]")) return;
    drag = {x: ev.clientX, y: ev.clientY, left: pic.scrollLeft, top: pic.scrollTop, moved: false};
  });
  window.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    pic.scrollLeft = drag.left - dx;
    pic.scrollTop = drag.top - dy;
  });
  window.addEventListener("pointerup", () => { drag = null; });
}

function drawDecision(box, view, clickable) {
  const d = view.decision;
  box.replaceChildren();
  if (view.result) box.append(el("p", {class: "result"}, view.result));
  if (!d) { if (!view.result) box.append(el("p", {class: "hint"}, "no decision pending")); return; }
  if (!d.mine) { box.append(el("p", {class: "hint waiting"}, `waiting for ${d.name}`)); return; }
  box.append(el("h3", {class: "prompt"}, `${d.name}: ${d.prompt}`));
  const list = el("div", {class: "options", id: clickable ? "options" : ""});
  d.options.forEach((o, i) => {
    const b = el("button", {type: "button", class: "option" + (d.chosen === i ? " chosen" : ""), "data-index": i},
      el("span", {class: "key"}, String(i + 1)), " " + o.label + (d.chosen === i ? "  \u2190 chosen" : ""));
    if (clickable) b.addEventListener("click", () => choose(i)); else b.disabled = true;
    // the option's element on the picture lights up while the pointer is on its button
    b.addEventListener("mouseenter", () => lightOption(box, i, true));
    b.addEventListener("mouseleave", () => lightOption(box, i, false));
    list.append(b);
  });
  box.append(list);
  for (const why of d.not_offered || []) box.append(el("p", {class: "why"}, "not offered: " + why));
}

function lightOption(box, i, on) {
  const pic = box.closest(".grid").querySelector(".picture");
  for (const e of pic.querySelectorAll(`[data-option='${i}']`)) e.classList.toggle("lit", on);
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

function logLine(t, fresh, at) {
  // a line of many lines is a drawing (a card, a sheet): kept in a fixed-width font
  const li = el("li", {class: (fresh ? "new" : "") + (t.includes("\n") ? " drawn" : "")}, t);
  if (at !== undefined) { li.dataset.at = at; li.classList.add("moment"); li.title = "see the game at this moment"; }
  return li;
}

function drawLog(list, lines, seen, moments) {
  // the lines already there stay when the log only grew (a long log is not drawn again
  // at every choice); after an undo or on another page it is drawn whole
  const shown = list.children.length;
  const at = (i) => (moments ? moments[i] : undefined);
  const grew = shown > 0 && shown <= lines.length && list.firstElementChild.textContent === lines[0] &&
    list.lastElementChild.textContent === lines[shown - 1];
  if (grew) {
    for (const li of list.querySelectorAll("li.new")) li.classList.remove("new");
    list.append(...lines.slice(shown).map((t, i) => logLine(t, shown + i >= seen, at(shown + i))));
  } else {
    list.replaceChildren(...lines.map((t, i) => logLine(t, i >= seen, at(i))));
  }
  list.scrollTop = list.scrollHeight;
}

// ---- playing ----------------------------------------------------------------------------
let nowView = null;       // the table's view now (current may be a past moment of it)
let pollTimer = null;

function showTable(view) {
  current = view;
  nowView = view;
  const play = $("#play");
  play.dataset.at = view.at;
  play.dataset.terminal = view.terminal;
  play.dataset.seat = view.seat === null ? "" : view.seat;
  delete play.dataset.past;
  $("#past").hidden = true;
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
  drawSince(view);
  drawLinks(view.table);
  drawDecisions(view);
  const seen = seenLog[view.table + ":" + view.seat] === undefined ? view.log.length :
    Math.min(seenLog[view.table + ":" + view.seat], view.log.length);
  drawLog($("#play-log"), view.log, seen, view.log_at);
  seenLog[view.table + ":" + view.seat] = view.log.length;
  if ($("#tree-box").open) drawTree();
  document.title = `${view.game} · Cairn`;
  waitOrPass(view);
}

function waitOrPass(view) {
  // another person's decision: at this computer, the pass screen; elsewhere, ask again soon
  clearTimeout(pollTimer);
  $("#pass").hidden = true;
  const d = view.decision;
  if (!d || d.mine || view.terminal) return;
  const held = heldSeats(view.table);
  if (held.includes(String(d.player))) {
    $("#pass-title").textContent = `Pass the computer to ${d.name}`;
    $("#pass-ready").textContent = `I am ${d.name}: show my view`;
    $("#pass-ready").onclick = () => { shownSeat[view.table] = String(d.player); openTable(view.table); };
    $("#pass").hidden = false;
    return;
  }
  pollTimer = setTimeout(async () => {
    if (location.hash !== "#play/" + view.table || (current && current.past)) return;
    try {
      const v = await call(`/api/tables/${view.table}`, undefined, seatHeader(view.table));
      if (v.at !== nowView.at || v.terminal !== nowView.terminal) showTable(v); else waitOrPass(nowView);
    } catch (e) { problem(e.message); }
  }, 1500);
}

function drawLinks(table) {
  const list = links()[table] || [];
  $("#links").hidden = list.length === 0;
  $("#link-list").replaceChildren(...list.map((l) => el("li", {},
    `${l.name} (seat ${parseInt(l.seat, 10) + 1}): `, el("input", {class: "link", readonly: "", value: l.url, "data-seat": l.seat}),
    " ", el("a", {href: l.url, target: "_blank", rel: "noopener"}, "open"))));
}

// ---- what changed since your last decision ------------------------------------------------------
function drawSince(view) {
  const box = $("#since");
  const s = view.since;
  box.replaceChildren();
  const pic = $("#play-picture");
  if (!s || (!s.steps.length && !s.changes.length)) { box.hidden = true; return; }
  box.hidden = false;
  box.append(el("h3", {}, "Since your last decision"));
  if (s.changes.length) {
    const ul = el("ul", {class: "changes"});
    for (const c of s.changes) {
      const li = el("li", {"data-objects": c.objects.join(" "), "data-spaces": c.spaces.join(" ")}, c.text);
      li.addEventListener("mouseenter", () => lightChange(pic, c, true));
      li.addEventListener("mouseleave", () => lightChange(pic, c, false));
      ul.append(li);
    }
    box.append(ul);
    for (const c of s.changes) markChange(pic, c);
  }
  const bots = s.steps.filter((x) => x.bot);
  if (s.steps.length) {
    const others = s.steps.length - bots.length;
    box.append(el("p", {class: "steps-head"}, `Bots moved: ${plural(bots.length, "step")}` +
      (others ? `; others: ${plural(others, "step")}` : "") + " (click one to see it)"));
    const ol = el("ol", {class: "steps"});
    for (const st of s.steps) {
      const b = el("button", {type: "button", class: "step", "data-at": st.at},
        `${st.name}${st.bot ? " (bot)" : ""}: ${st.lines.length ? st.lines.join(" · ") : "a choice"}`);
      b.addEventListener("click", () => showMoment(st.at));
      ol.append(el("li", {}, b));
    }
    box.append(ol);
  }
}

function markChange(pic, c) {
  for (const o of c.objects) for (const e of pic.querySelectorAll(`[data-object="${CSS.escape(o)}"]`)) e.classList.add("changed");
  for (const sp of c.spaces) for (const e of pic.querySelectorAll(`[data-space="${CSS.escape(sp)}"]`)) e.classList.add("changed");
}
function lightChange(pic, c, on) {
  for (const o of c.objects) for (const e of pic.querySelectorAll(`[data-object="${CSS.escape(o)}"]`)) e.classList.toggle("lit", on);
  for (const sp of c.spaces) for (const e of pic.querySelectorAll(`[data-space="${CSS.escape(sp)}"]`)) e.classList.toggle("lit", on);
}

// ---- the inspector: past moments, branches, the state as a tree --------------------------------
async function showMoment(k) {
  if (!nowView) return;
  if (k >= nowView.at) return backToNow();
  try {
    const v = await call(`/api/tables/${nowView.table}?at=${k}`, undefined, seatHeader(nowView.table));
    current = v;
    const play = $("#play");
    play.dataset.past = k;
    $("#past").hidden = false;
    $("#past-label").textContent = `The game after ${plural(k, "choice")} (now: ${nowView.at}), as ${v.seat === null ? "a spectator" : v.players[v.seat]} saw it`;
    $("#branch").hidden = !(v.decisions || []).includes(k) || k >= nowView.at;
    $("#branch").dataset.at = k;
    drawView("play", v, false);
    $("#since").hidden = true;
    drawLog($("#play-log"), v.log, v.log.length, v.log_at);
    if ($("#tree-box").open) drawTree();
    problem("");
  } catch (e) { problem(e.message); }
}

function backToNow() { if (nowView) openTable(nowView.table); }

function stepMoment(by) {
  if (!current || !current.past) return;
  showMoment(Math.max(0, current.at + by));
}

async function branch() {
  const k = parseInt($("#branch").dataset.at, 10);
  const table = nowView.table;
  try {
    const v = await call(`/api/tables/${table}/branch`, {at: k}, seatHeader(table));
    const here = new Set(heldSeats(table));
    handOut(v, (p) => here.has(String(p)));
    location.hash = "play/" + v.table;
  } catch (e) { problem(e.message); }
}

function drawDecisions(view) {
  const box = $("#my-decisions");
  const past = (view.decisions || []).filter((k) => k < view.at);
  box.replaceChildren(...(past.length ? past.map((k, i) => {
    const b = el("button", {type: "button", class: "moment-button", "data-at": k}, `#${i + 1}`);
    b.title = `your decision after ${plural(k, "choice")}`;
    b.addEventListener("click", () => showMoment(k));
    return b;
  }) : [el("span", {class: "hint"}, "none yet")]));
}

async function drawTree() {
  const v = current;
  if (!v || !v.table) return;
  try {
    const out = await call(`/api/tables/${v.table}?at=${v.at}&tree=1`, undefined, seatHeader(v.table));
    $("#tree").replaceChildren(treeNode(out.tree, true));
  } catch (e) { problem(e.message); }
}

function treeNode(value, open) {
  if (value === null || typeof value !== "object") return document.createTextNode(JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i + 1), v]) : Object.entries(value);
  const ul = el("ul", {class: "tree-list"});
  for (const [k, v] of entries) {
    if (v !== null && typeof v === "object" && Object.keys(v).length) {
      const d = el("details", {}, el("summary", {}, `${k} (${Object.keys(v).length})`), treeNode(v, false));
      if (open) d.open = true;
      ul.append(el("li", {}, d));
    } else {
      ul.append(el("li", {}, el("span", {class: "tree-key"}, k + ": "), treeNode(v, false)));
    }
  }
  return ul;
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
  if (!current || current.busy || current.past) return;
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
  try {
    const v = await call(`/api/tables/${current.table}/undo`, {}, seatHeader(current.table));
    seenLog[v.table + ":" + v.seat] = v.log.length; showTable(v); problem("");
  } catch (e) { problem(e.message); }
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
  if (!$("#play").hidden && current && current.decision && current.decision.mine && !current.past) {
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
  const [page, token, seat, secret] = location.hash.slice(1).split("/");
  if (page === "join" && token && secret) {
    // a link handed out for one seat: its secret is kept here, and taken out of the address
    keepSecret(token, secret, seat);
    shownSeat[token] = seat;
    history.replaceState(null, "", "#play/" + token);
    return openTable(token);
  }
  if (page === "play" && token) return openTable(token);
  if (page === "replay" && token) return openReplay(token);
  if (page === "replays") { show("replays"); $("#viewer").hidden = true; return listReplays(); }
  show("setup");
  await listTables();
}

window.addEventListener("DOMContentLoaded", async () => {
  $("#game").addEventListener("change", gameChanged);
  $("#players").addEventListener("input", seatsChanged);
  $("#now").addEventListener("click", backToNow);
  $("#past-prev").addEventListener("click", () => stepMoment(-1));
  $("#past-next").addEventListener("click", () => stepMoment(1));
  $("#branch").addEventListener("click", branch);
  $("#tree-box").addEventListener("toggle", () => { if ($("#tree-box").open) drawTree(); });
  $("#play-log").addEventListener("click", (ev) => {
    const li = ev.target.closest("li[data-at]");
    if (li) showMoment(parseInt(li.dataset.at, 10));
  });
  for (const pic of document.querySelectorAll(".picture")) {
    pannable(pic);
    pic.addEventListener("mousemove", showTip);
    pic.addEventListener("mouseleave", () => { $("#tip").hidden = true; });
  }
  for (const b of document.querySelectorAll(".tools button")) {
    b.addEventListener("click", () => {
      const pic = $("#" + b.dataset.for);
      const svg = pic.querySelector("svg");
      const v = b.dataset.for === "play-picture" ? current : null;
      const game = (v && v.game_id) || "replay";
      const now = parseFloat(pic.dataset.scale) || 1;
      if (b.classList.contains("zoom-fit")) zoom(pic, game, svg ? fitScale(pic, svg) : 1);
      else zoom(pic, game, Math.max(0.2, Math.min(4, now * (b.classList.contains("zoom-in") ? 1.25 : 0.8))));
    });
  }
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
  try { await loadGames(); } catch (e) { problem(e.message); }
  await route();
  document.body.dataset.ready = "1";
});
