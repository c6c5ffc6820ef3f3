// The game's picture on the page, from the board of the view the server sends: the Inland Port's
// game boards, warehouses and offer; the base game's supply, offers, town, ships and players; any
// other part, or another game, as plain tables of its facts.
"use strict";

(() => {
  const GOODS = { fish: "F", grain: "G", wood: "W", clay: "C" };

  // -- any data, as tables and lists --------------------------------------------------------------
  function facts(h, value, depth = 0) {
    const { el, words, isScalar, scalarText } = h;
    if (isScalar(value)) return el("span", { text: scalarText(value) });
    if (Array.isArray(value)) {
      if (value.length === 0) return el("span", { class: "muted", text: "none" });
      if (value.every(isScalar)) return el("span", { text: value.map(scalarText).join(", ") });
      if (value.every((x) => x && typeof x === "object" && !Array.isArray(x))) return rows(h, value, depth);
      return el("ul", {}, value.map((x) => el("li", {}, facts(h, x, depth + 1))));
    }
    const dl = el("dl", { class: "facts" });
    for (const [k, v] of Object.entries(value)) {
      dl.append(el("dt", { text: words(k) }), el("dd", {}, facts(h, v, depth + 1)));
    }
    return dl;
  }

  function rows(h, list, depth) {
    const { el, words } = h;
    const keys = [...new Set(list.flatMap((x) => Object.keys(x)))];
    return el("div", { class: "scroll" }, el("table", { class: "facts" },
      el("thead", {}, el("tr", {}, keys.map((k) => el("th", { text: words(k) })))),
      el("tbody", {}, list.map((x) => el("tr", {}, keys.map((k) => el("td", {}, facts(h, x[k], depth + 1))))))));
  }

  function panel(h, title, ...children) {
    return h.el("section", { class: "panel" }, h.el("h3", { text: title }), ...children);
  }

  // -- the Inland Port ------------------------------------------------------------------------------
  // Each game board's pointer turns one letter a round (the rulebook, "End of the round"): both point
  // at the same place, A and G at the start; the round's letter is on one of the two boards.
  function roundTrack(h, b, side) {
    const { el } = h;
    const letters = side.game_board === "A-F board" ? "ABCDEF" : "GHIJKL";
    const at = (b.round_number - 1) % 6;
    return el("ol", { class: "track", "aria-label": `${side.game_board}: its pointer at ${letters[at]}` },
      [...letters].map((l, i) => el("li", {
        class: i === at ? (l === b.round_letter ? "pointer now" : "pointer") : "", text: l,
        title: i === at ? (l === b.round_letter ? "the pointer: this round" : "the pointer") : null,
      })));
  }

  function sectorsOf(h, side) {
    const { el } = h;
    return el("ol", { class: "sectors" }, side.sectors.map((s) => el("li", { class: "sector" },
      el("span", { class: "label", text: s.label }),
      s.value === null ? el("span", { class: "worth", text: "sold at once" }) : null,
      el("ul", {}, s.buildings.map((n) => el("li", { class: "building", text: n }))))));
  }

  function warehouse(h, w) {
    const { el } = h;
    const at = new Map();
    for (const c of w.counters) {
      const key = `${c.row},${c.column}`;
      at.set(key, [...(at.get(key) || []), c]);
    }
    const head = el("tr", {}, el("th", { text: "" }),
      [...Array(w.columns).keys()].map((c) => el("th", { scope: "col", text: `+${c * w.column_value}` })));
    const body = [...Array(w.rows).keys()].reverse().map((r) => el("tr", {},
      el("th", { scope: "row", text: `${r * w.row_value}` }),
      [...Array(w.columns).keys()].map((c) => el("td", {},
        (at.get(`${r},${c}`) || []).map((k) => el("span", { class: `good ${k.good}`, title: `${k.good} ${k.amount}`,
          text: GOODS[k.good] || k.good[0] }))))));
    const amounts = el("p", { class: "amounts" }, w.counters.map((k) =>
      el("span", { class: `good ${k.good}`, text: `${GOODS[k.good] || ""} ${k.good} ${k.amount}` })));
    return el("div", { class: "warehouse" },
      el("table", { class: "grid", "aria-label": "warehouse" }, el("thead", {}, head), el("tbody", {}, body)),
      amounts);
  }

  function inlandSide(h, b, side) {
    const { el, seatName } = h;
    const mover = b.to_move === side.seat ? " tomove" : "";
    return el("section", { class: `panel side seat${side.seat}${mover}` },
      el("h3", {}, seatName(side.seat), el("span", { class: "muted", text: ` · ${side.game_board}` })),
      el("p", { class: "purse" }, el("strong", { text: `${side.francs} francs` }), ` · wealth ${side.wealth}`),
      roundTrack(h, b, side),
      sectorsOf(h, side),
      side.beside_board.length ? el("p", { class: "beside" }, "Beside the board (locks): ",
        side.beside_board.join(", ")) : null,
      warehouse(h, side.warehouse));
  }

  function inland(h, b) {
    const { el } = h;
    const head = el("p", { class: "round" },
      el("strong", { text: `Round ${b.round_letter}` }), ` (${b.round_number} of ${b.rounds})`,
      b.over ? " · the game is over" : ` · ${b.actions_left} of ${b.actions_in_round} actions left`,
      ` · ${h.seatName(b.starting_player)} started the round`);
    const offer = panel(h, "Buildings on offer", el("div", { class: "scroll" }, el("table", { class: "offer" },
      el("thead", {}, el("tr", {}, ["Building", "Cost", "Value", ""].map((t) => el("th", { text: t })))),
      el("tbody", {}, b.offer.map((o) => el("tr", { class: o.buildable ? "buildable" : "" },
        el("td", { text: o.name }), el("td", { text: o.cost }), el("td", { text: `${o.value}` }),
        el("td", { text: [o.locked ? "lock" : "", o.buildable ? "can build" : ""].filter(Boolean).join(", ") })))))));
    const coming = panel(h, "Waiting to enter", el("ul", { class: "coming" }, b.coming.map((c) =>
      el("li", {}, el("strong", { text: `${c.round}: ` }), c.buildings.join(", ")))));
    return [head, el("div", { class: "sides" }, b.sides.map((s) => inlandSide(h, b, s))), offer, coming];
  }

  // -- the base game ----------------------------------------------------------------------------------
  function dots(h, seats) {
    return (seats || []).map((s) => h.el("span", { class: `dot seat${s}`, title: h.seatName(s) }));
  }

  function chips(h, goods) {
    const entries = Object.entries(goods || {});
    if (!entries.length) return h.el("span", { class: "muted", text: "none" });
    return entries.map(([g, n]) => h.el("span", { class: `chip ${g.replace(/ /g, "_")}`, text: `${g} ${n}` }));
  }

  // Buildings as rows; ``persons``: a last column with the persons in each and whether the player to
  // move can enter it (a player's own buildings leave it out: only the name in bold says so).
  function buildingRows(h, list, { persons = true } = {}) {
    const { el } = h;
    const heads = ["Building", "Value", "Price", "Entry", ...(persons ? [""] : [])];
    return el("div", { class: "scroll" }, el("table", { class: "buildings" },
      el("thead", {}, el("tr", {}, heads.map((t) => el("th", { text: t })))),
      el("tbody", {}, list.map((b) => el("tr", { class: b.enterable ? "buildable" : "" },
        el("td", { text: b.name + (b.special ? " ★" : ""), title: b.enterable ? "you can enter it now" : null }),
        el("td", { text: `${b.value}` }),
        el("td", { text: b.price === null ? "—" : `${b.price}` }),
        el("td", { text: !b.usable ? "no action" : entryText(b) }),
        persons ? el("td", {}, dots(h, b.persons), b.enterable ? " can enter" : "") : null)))));
  }

  function entryText(b) {
    const parts = [];
    if (b.entry_food) parts.push(`${b.entry_food} food`);
    if (b.entry_francs) parts.push(`${b.entry_francs} fr`);
    return parts.length ? parts.join(" or ") : "free";
  }

  function baseSide(h, b, p) {
    const { el } = h;
    const mover = b.to_move === p.seat ? " tomove" : "";
    return el("section", { class: `panel side seat${p.seat}${mover}` },
      el("h3", {}, h.seatName(p.seat)),
      el("p", { class: "purse" }, el("strong", { text: `${p.francs} francs` }),
        p.loans ? ` · ${p.loans} loan${p.loans === 1 ? "" : "s"}` : "", ` · wealth ${p.wealth}`,
        ` · food ${p.food}, energy ${p.energy}`),
      el("p", { class: "goods" }, chips(h, p.goods)),
      el("p", {}, "Ships: ", p.ships.length ? p.ships.map(([t, v]) => `${t} ${v}`).join(", ") : "none",
        p.food_owed === null ? "" : ` · food owed ${p.food_owed}`,
        p.person_at ? ` · person in ${p.person_at}` : ""),
      p.buildings.length ? buildingRows(h, p.buildings, { persons: false }) : el("p", { class: "muted", text: "no buildings" }));
  }

  function base(h, b) {
    const { el } = h;
    const r = b.round;
    const head = el("p", { class: "round" },
      el("strong", { text: r ? `Round ${r.number} of ${r.rounds}` : "Final actions" }),
      r ? ` · at its end: ${r.harvest ? "harvest, " : ""}${r.food} food, town builds ${r.town_builds}, ` +
        `a ${r.ship_type} ship (${r.ship_value}) joins` : "",
      b.decision ? el("span", { class: "decision", text: ` · ${b.decision}` }) : null);
    const offer = panel(h, "Offer spaces", el("p", { class: "goods" }, chips(h, b.offer)));
    const supply = panel(h, "Supply", el("ol", { class: "supply" }, b.supply_tiles.map((t) => el("li", {},
      t.first === null ? el("span", { class: "muted", text: "face down" }) : `${t.first} / ${t.second}`,
      t.interest ? el("span", { class: "interest", title: "interest", text: " ⚑" }) : null, " ", dots(h, t.ships)))));
    const ships = panel(h, "Ships", el("ul", { class: "ships" }, b.ship_piles.map((s) => el("li", {},
      el("strong", { text: s.label }), `: ${s.values.join(", ") || "none"}`,
      s.price === null ? "" : ` · buy for ${s.price}`, ` · feeds ${s.feeds}`))));
    const piles = panel(h, "Building proposals", el("div", { class: "piles" }, b.proposal_piles.map((pile, i) =>
      el("div", {}, el("h4", { text: `Pile ${i + 1}` }), buildingRows(h, pile)))));
    const town = panel(h, "Town", b.town.length ? buildingRows(h, b.town) : el("p", { class: "muted", text: "no buildings" }),
      b.specials ? el("p", { class: "muted", text: `${b.specials.face_down} special buildings face down` +
        (b.specials.known.length ? `; the top ones: ${b.specials.known.join(", ")}` : "") }) : null);
    return [head, el("div", { class: "row" }, offer, supply, ships),
      el("div", { class: "sides" }, b.sides.map((p) => baseSide(h, b, p))), piles, town];
  }

  function render(view, h) {
    const b = view.board || {};
    if (b.game === "inland" && Array.isArray(b.sides)) return inland(h, b);
    if (b.game === "base" && Array.isArray(b.sides)) return base(h, b);
    return [panel(h, "The game", facts(h, b))];
  }

  window.LeHavreBoards = { render, facts };
})();
