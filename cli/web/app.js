// The page of a seat (or a spectator) at a game hosted with 'lehavre host'.
// It joins with the code from the link's fragment, keeps that code in this tab's storage (so a reload
// or a lost connection comes back to the seat), shows the view the server sends and sends the same
// action texts a person types in the terminal.  No framework, nothing fetched from elsewhere; every
// text from the server is set as text, never as markup.
"use strict";

(() => {
  const VERSION = 2;
  const CODE_KEY = "lehavre-code";
  const WATCH_KEY = "lehavre-watch";
  const $ = (id) => document.getElementById(id);
  const page = {
    code: null, watch: false, ws: null, welcome: null, view: null, question: null,
    closed: null, refusedCode: null, retries: 0, timer: null, replaced: false, open: null,
  };

  // -- small helpers ----------------------------------------------------------------------------
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  const words = (key) => String(key).replace(/_/g, " ");
  const isScalar = (v) => v === null || ["string", "number", "boolean"].includes(typeof v);
  const scalarText = (v) => (v === null ? "—" : v === true ? "yes" : v === false ? "no" : String(v));

  function banner(text, kind) {
    const b = $("banner");
    b.textContent = text || "";
    b.className = kind || "info";
    b.hidden = !text;
  }
  function status(text) { $("status").textContent = text; }

  // -- the code: from the link, then this tab's storage -------------------------------------------
  function readCode() {
    const fromLink = decodeURIComponent(location.hash.replace(/^#/, "")).trim();
    if (fromLink) {
      const watch = fromLink.endsWith("?watch");
      const code = watch ? fromLink.slice(0, -"?watch".length) : fromLink;
      sessionStorage.setItem(CODE_KEY, code);
      sessionStorage.setItem(WATCH_KEY, watch ? "1" : "");
      // the code leaves the address bar (and the history): this tab keeps it
      history.replaceState(null, "", location.pathname);
    }
    page.code = sessionStorage.getItem(CODE_KEY);
    page.watch = sessionStorage.getItem(WATCH_KEY) === "1";
  }

  function askForCode(why) {
    $("game").hidden = page.view === null;
    $("codeform").hidden = false;
    if (why) banner(why, "error");
    status("Not joined");
    $("codeinput").focus();
  }

  // -- the connection -----------------------------------------------------------------------------
  function connect() {
    clearTimeout(page.timer);
    status(page.retries ? `Connection lost: reconnecting (try ${page.retries})…` : "Joining…");
    let ws;
    try {
      ws = new WebSocket(`ws://${location.host}/`);
    } catch (err) {
      banner(`Cannot open a connection to ${location.host}: ${err.message}`, "error");
      return;
    }
    page.ws = ws;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ version: VERSION, type: "hello", code: page.code, watch: page.watch, view: true }));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      onMessage(msg);
    });
    ws.addEventListener("close", (ev) => onClose(ws, ev));
  }

  function onClose(ws, ev) {
    if (ws !== page.ws) return;
    page.ws = null;
    if (page.closed !== null || page.refusedCode !== null) return;
    if (ev.reason && /another connection/.test(ev.reason)) {
      page.replaced = true;
      status("Playing elsewhere");
      banner("This seat was joined from another window or device: that one plays it now. " +
        "Reload this page to take the seat back here.", "error");
      return;
    }
    if (page.welcome === null && page.retries >= 3) {
      status("Not connected");
      banner(`Cannot reach the game at ${location.host}: is the host still running it? ` +
        "(A game that is over no longer answers.) Reload to try again.", "error");
      return;
    }
    page.retries += 1;
    status("Connection lost: reconnecting…");
    page.timer = setTimeout(connect, Math.min(500 * page.retries, 5000));
  }

  function send(msg) {
    if (page.ws === null || page.ws.readyState !== WebSocket.OPEN) {
      banner("Not connected just now: wait for the page to reconnect, then try again.", "error");
      return false;
    }
    page.ws.send(JSON.stringify({ version: VERSION, ...msg }));
    return true;
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "welcome": return onWelcome(msg);
      case "view": return onView(msg);
      case "refused": return onRefused(msg);
      case "notice": return banner(noticeText(msg), "info");
      case "question": page.question = msg; return renderQuestion();
      case "closed": return onClosed(msg);
      default: return undefined;  // a position for the terminal's client: the view says it all
    }
  }

  function onWelcome(msg) {
    page.welcome = msg;
    page.retries = 0;
    $("codeform").hidden = true;
    $("game").hidden = false;
    if (!page.replaced) banner("", "info");
    page.replaced = false;
    document.body.classList.toggle("spectator", msg.seat === null);
  }

  function onRefused(msg) {
    if (page.welcome === null) {  // the code itself was refused: trying again will not help
      page.refusedCode = page.code;
      sessionStorage.removeItem(CODE_KEY);
      const why = /unknown code/.test(msg.reason || "")
        ? "This link's code is not a seat of this game (mistyped, or from another game). " +
          "Ask the host for your link, or type the code they printed."
        : `The host did not let this code join: ${msg.reason}`;
      askForCode(why);
      return;
    }
    banner(msg.undo ? takeBackText(msg.undo, "refused") : msg.reason, "error");
  }

  function onClosed(msg) {
    page.closed = msg.text;
    status("The game has ended");
    banner(msg.text, "info");
    sessionStorage.removeItem(CODE_KEY);
    render();
  }

  function onView(msg) {
    if (page.view === null || page.view.ply !== msg.ply) page.open = null;
    page.view = msg;
    if (msg.question !== undefined) page.question = msg.question || null;
    render();
  }

  // -- what the server says, in words -------------------------------------------------------------
  function seatName(s) {
    const seats = (page.view && page.view.seats) || [];
    return seats[s] ? seats[s].name : `seat ${Number(s) + 1}`;
  }
  function takeBackText(t, how) {
    const taken = (t.taken || []).map(([who, text]) => `${seatName(who)}: ${text}`).join("; ");
    if (how === "asked") return `${seatName(t.asker)} asks to take back ${taken}. Do you agree?`;
    if (how === "refused") return `${seatName(t.maker)} is not here to agree to taking back ${taken}.`;
    return `Asked ${seatName(t.maker)} to agree to taking back ${taken}.`;
  }
  function noticeText(msg) { return msg.undo ? takeBackText(msg.undo, "notice") : msg.text; }

  // -- the page -------------------------------------------------------------------------------------
  function render() {
    const v = page.view;
    if (v === null) return;
    $("title").textContent = v.title || (v.ruleset === "inland" ? "Le Havre: The Inland Port" : "Le Havre");
    document.title = $("title").textContent;
    renderTurn(v);
    renderChoices(v);
    renderQuestion();
    renderResult(v);
    renderSeats(v);
    renderLog(v);
    const board = $("board");
    board.replaceChildren(...window.LeHavreBoards.render(v, { el, words, isScalar, scalarText, seatName }));
  }

  function myTurn(v) {
    return page.closed === null && page.welcome && page.welcome.seat !== null && (v.choices || []).length > 0;
  }

  function renderTurn(v) {
    const seat = page.welcome ? page.welcome.seat : null;
    let text;
    if (page.closed !== null || v.result) text = "The game is over";
    else if (seat === null) text = `Watching: ${toMove(v)}`;
    else if (myTurn(v)) text = "Your move";
    else text = `Waiting: ${toMove(v)}`;
    $("turn").textContent = text;
    if (page.ws !== null && page.closed === null) {
      status(seat === null ? "Spectator" : `You play ${seatName(seat)}`);
    }
    document.body.classList.toggle("myturn", myTurn(v));
  }

  function toMove(v) {
    const p = v.to_move;
    return p === null || p === undefined ? "…" : `${seatName(p)} to play`;
  }

  // The terminal's numbered choices: a group with one action plays it; a group of several (the
  // terminal's second step: which way to pay, which goods) opens its actions.
  function renderChoices(v) {
    const box = $("choices");
    const mine = myTurn(v);
    $("command").hidden = !(page.welcome && page.welcome.seat !== null) || page.closed !== null;
    $("undo").hidden = !(page.welcome && page.welcome.undo);
    if (!mine) { box.replaceChildren(); page.open = null; return; }
    const items = (v.choices || []).map((g, i) => choiceItem(g, i));
    if (v.unlisted) {
      items.push(el("p", { class: "muted", text:
        `${v.unlisted} more ways to pay are left out (none pays less of anything); type one to play it.` }));
    }
    box.replaceChildren(...items);
  }

  function choiceItem(g, i) {
    const actions = g.actions || [];
    const single = actions.length === 1;
    const head = el("button", {
      type: "button", class: `choice${single ? "" : " group"}`, "data-action": single ? actions[0].text : null,
      "aria-expanded": single ? null : String(page.open === i),
      onclick: () => {
        if (single) { play(actions[0].text); return; }
        page.open = page.open === i ? null : i;
        renderChoices(page.view);
      },
    },
    el("span", { class: "num", text: `${i + 1}` }),
    el("span", { class: "act", text: g.head }),
    g.note ? el("span", { class: "about", text: g.note }) : null,
    single ? null : el("span", { class: "more", text: page.open === i ? "▾" : "▸" }));
    if (single || page.open !== i) return head;
    const ways = actions.map((a, k) => el("button", {
      type: "button", class: "choice way", "data-action": a.text, onclick: () => play(a.text),
    },
    el("span", { class: "num", text: `${i + 1}.${k + 1}` }),
    el("span", { class: "act", text: a.how || a.text }),
    a.note ? el("span", { class: "about", text: a.note }) : null));
    return el("div", { class: "ways" }, head, ...ways);
  }

  function renderQuestion() {
    const q = page.question;
    const box = $("question");
    if (!q || page.closed !== null) { box.hidden = true; box.replaceChildren(); return; }
    const text = q.undo ? takeBackText(q.undo, "asked") : q.text;
    box.replaceChildren(
      el("p", { text }),
      el("div", { class: "answers" }, (q.choices || []).map((c) =>
        el("button", { type: "button", class: "answer", onclick: () => answer(q, c) }, c))),
    );
    box.hidden = false;
  }

  function renderResult(v) {
    const r = v.result;
    const box = $("result");
    if (!r) { box.hidden = true; return; }
    const order = r.wealth.map((w, s) => s).sort((a, b) => r.placings[a] - r.placings[b]);
    const rows = order.map((s) => el("tr", {},
      el("td", { text: `${r.placings[s]}.` }), el("th", { scope: "row", text: seatName(s) }),
      el("td", { text: `${r.wealth[s]}` })));
    box.replaceChildren(
      el("h2", { text: "Final placings" }),
      el("table", { class: "placings" },
        el("thead", {}, el("tr", {}, el("th", { text: "Place" }), el("th", { text: "Player" }),
          el("th", { text: "Wealth" }))),
        el("tbody", {}, rows)),
      el("p", { class: "margin", text: r.margin ? `Won by ${r.margin}.` : "The first place is shared." }),
    );
    box.hidden = false;
  }

  function renderSeats(v) {
    const me = page.welcome ? page.welcome.seat : null;
    const items = (v.seats || []).map((s, i) => el("li", { class: i === me ? "me" : "" },
      el("span", { class: `dot seat${i}` }), el("strong", { text: s.name }),
      s.kind === "person" || s.kind === s.name ? "" : ` ${s.kind}`, s.status ? el("em", { text: ` ${s.status}` }) : null,
      i === me ? el("span", { class: "you", text: " (you)" }) : null));
    $("seats").replaceChildren(el("h2", { text: "Players" }), el("ul", {}, items));
  }

  function renderLog(v) {
    const entries = (v.log || []).map((e) => {
      if (typeof e === "string") return el("li", { text: e });
      const who = e.seat ?? e.player;
      return el("li", { class: who !== undefined && who !== null ? `by seat${who}` : "" },
        who !== undefined && who !== null ? el("strong", { text: `${seatName(who)}: ` }) : null,
        e.text ?? e.action ?? JSON.stringify(e));
    });
    const log = $("log");
    log.replaceChildren(...entries);
    log.scrollTop = log.scrollHeight;
  }

  // -- what the person does -------------------------------------------------------------------------
  const plyOf = (v) => v.ply ?? (v.actions ? v.actions.length : 0);

  function play(text) {
    if (!page.view) return;
    if (send({ type: "play", action: text, ply: plyOf(page.view) })) banner("", "info");
  }

  function answer(q, choice) {
    if (send({ type: "answer", question: q.id, choice })) {
      page.question = null;
      renderQuestion();
    }
  }

  function command(text) {
    const t = text.trim();
    if (!t || !page.view) return;
    if (t.toLowerCase() === "undo") { undo(); return; }
    // a number picks a choice as at the terminal ("3", or "3.2" for a group's second way)
    const m = /^(\d+)(?:\.(\d+))?$/.exec(t);
    const groups = page.view.choices || [];
    if (m && Number(m[1]) >= 1 && Number(m[1]) <= groups.length) {
      const actions = groups[Number(m[1]) - 1].actions || [];
      const k = m[2] === undefined ? (actions.length === 1 ? 1 : 0) : Number(m[2]);
      if (k >= 1 && k <= actions.length) { play(actions[k - 1].text); return; }
      page.open = Number(m[1]) - 1;
      renderChoices(page.view);
      banner(`Choice ${m[1]} has ${actions.length} ways: pick one below (or type ${m[1]}.1 to ${m[1]}.${actions.length}).`, "info");
      return;
    }
    play(t);
  }

  function undo() {
    if (page.view) send({ type: "undo", ply: plyOf(page.view) });
  }

  // -- start ---------------------------------------------------------------------------------------
  function start() {
    $("command").addEventListener("submit", (ev) => {
      ev.preventDefault();
      command($("commandinput").value);
      $("commandinput").value = "";
    });
    $("undo").addEventListener("click", undo);
    $("codeform").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const code = $("codeinput").value.trim();
      if (!code) return;
      sessionStorage.setItem(CODE_KEY, code);
      sessionStorage.setItem(WATCH_KEY, $("watchbox").checked ? "1" : "");
      page.code = code;
      page.watch = $("watchbox").checked;
      page.refusedCode = null;
      page.retries = 0;
      banner("", "info");
      connect();
    });
    document.addEventListener("keydown", (ev) => {
      if (ev.key === "/" && document.activeElement !== $("commandinput") && !$("command").hidden) {
        ev.preventDefault();
        $("commandinput").focus();
      }
    });
    window.addEventListener("hashchange", () => { readCode(); if (page.code) { page.refusedCode = null; connect(); } });
    readCode();
    if (page.code) connect();
    else askForCode("Open the link the host printed for your seat, or type your code here.");
  }

  window.LeHavrePage = page;
  document.addEventListener("DOMContentLoaded", start);
})();
