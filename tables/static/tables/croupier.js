/* The croupier's table screen (issue 15): the little the page needs beyond htmx.
   1. Every tap gets an idempotency key when it is tapped (kept on its form), so a retry sends the SAME key
      and the server logs the action once.
   2. A request that fails on the network is "not yet sent": the hand is greyed, a banner says so, and the
      same request (same key) is retried until it lands or the croupier is told and can retry by hand.
   3. The card picker: tap a rank, then a suit (or type them); only unseen cards are offered.
   4. The spread-limit amount picker: a slider of whole cents (sent as to_cents), chip steps, quick amounts.
   5. The exposed-card form (folded away until opened): opened, the picker fills it. */
(function () {
  "use strict";
  var SUITS = { c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660" };
  var RANK_KEYS = "23456789TJQKA";
  var AUTO_RETRIES = 5;

  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return "tap-" + Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function pretty(code) {
    if (!code) { return "\u00b7"; }
    if (code === "??") { return "??"; }
    return (code[0] === "T" ? "10" : code[0]) + (SUITS[code[1]] || code[1]);
  }
  function hand() { return document.getElementById("hand"); }

  // --- htmx settings: refusals (4xx) carry a readable fragment and are swapped; 5xx is "not yet sent".
  function configure() {
    if (!window.htmx) { return; }
    window.htmx.config.timeout = 8000;
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[234]..", swap: true, error: false },
      { code: "...", swap: false, error: true }
    ];
  }

  // --- 1. the key, made when the croupier taps (capture phase: before htmx sends the form)
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-keyed]")) { return; }
    var input = form.querySelector("input[name=idempotency_key]");
    if (input && !input.value) { input.value = newKey(); }
    if (e.submitter && e.submitter.name) { form.dataset.submitterName = e.submitter.name; form.dataset.submitterValue = e.submitter.value; }
  }, true);

  // --- 2. not yet sent: retry with the same key
  function banner(form, attempts, gaveUp) {
    var h = hand();
    if (!h) { return; }
    h.classList.add("pending");
    var box = document.getElementById("pending");
    if (!box) {
      box = document.createElement("div");
      box.id = "pending";
      box.setAttribute("role", "alert");
      h.insertBefore(box, h.firstChild);
    }
    var msg = gaveUp ? (h.dataset.msgGaveUp || "Not sent: the server cannot be reached.")
                     : (h.dataset.msgPending || "Not yet sent: retrying…");
    box.innerHTML = "";
    var strong = document.createElement("strong");
    strong.textContent = msg + " (" + attempts + ")";
    box.appendChild(strong);
    var retry = document.createElement("button");
    retry.type = "button";
    retry.className = "primary";
    retry.textContent = h.dataset.msgRetry || "Retry now";
    retry.addEventListener("click", function () { resend(form); });
    box.appendChild(retry);
  }
  function resend(form) {
    if (!document.body.contains(form)) { return; }
    var submitter = null;
    if (form.dataset.submitterName) {
      submitter = form.querySelector("button[name='" + form.dataset.submitterName + "'][value='" + form.dataset.submitterValue + "']");
    }
    if (submitter) { submitter.disabled = false; }
    form.requestSubmit(submitter || undefined);
  }
  function failed(e) {
    var elt = e.detail && e.detail.elt;
    var form = elt && elt.closest ? elt.closest("form[data-keyed]") : null;
    if (!form) { return; }
    var attempts = (parseInt(form.dataset.attempts || "0", 10) || 0) + 1;
    form.dataset.attempts = String(attempts);
    var gaveUp = attempts > AUTO_RETRIES;
    banner(form, attempts, gaveUp);
    if (!gaveUp) { window.setTimeout(function () { resend(form); }, Math.min(800 * attempts, 4000)); }
  }
  document.addEventListener("htmx:sendError", failed);
  document.addEventListener("htmx:timeout", failed);
  document.addEventListener("htmx:responseError", failed);

  // --- 3. card picker
  function groups() {
    // Card groups the picker fills; a form folded away in a closed <details> (the exposed-card form) is left out.
    return Array.prototype.filter.call(document.querySelectorAll("[data-slots]"), function (g) {
      return !g.closest("details:not([open])");
    });
  }
  function emptySlots(group) {
    return Array.prototype.filter.call(group.querySelectorAll("[data-slot]"), function (s) {
      return !s.querySelector("input").value;
    });
  }
  function activeGroup() {
    var all = groups();
    var active = all.filter(function (g) { return g.classList.contains("active"); })[0];
    if (active && emptySlots(active).length) { return active; }
    return all.filter(function (g) { return emptySlots(g).length; })[0] || active || null;
  }
  function setActive(group) {
    groups().forEach(function (g) { g.classList.toggle("active", g === group); });
  }
  function usedCards() {
    var used = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-slot] input"), function (i) { if (i.value) { used[i.value] = true; } });
    return used;
  }
  function unseen() {
    // The cards the picker offers: the active form's own choices (e.g. the four cards a Forty-one seat
    // holds, two of which it exposes), else every card not yet seen in this hand.
    var p = document.getElementById("picker");
    var group = activeGroup();
    var form = group && group.closest("form");
    var list = (form && form.dataset.choices) || (p ? p.dataset.unseen : "");
    var out = {};
    list.split(" ").forEach(function (c) { if (c) { out[c] = true; } });
    return out;
  }
  function available(code) { return unseen()[code] && !usedCards()[code]; }
  function refresh() {
    var p = document.getElementById("picker");
    if (!p) { return; }
    var rank = p.dataset.rank || "";
    Array.prototype.forEach.call(p.querySelectorAll("[data-rank]"), function (b) {
      var r = b.dataset.rank;
      b.classList.toggle("chosen", r === rank);
      b.disabled = !"cdhs".split("").some(function (s) { return available(r + s); });
    });
    Array.prototype.forEach.call(p.querySelectorAll("[data-suit]"), function (b) {
      b.disabled = rank ? !available(rank + b.dataset.suit) : false;
    });
    document.querySelectorAll("form[data-slots], form.capsa").forEach(function (form) {
      var submit = form.querySelector("button[type=submit]");
      if (submit && form.matches("form[data-slots]")) { submit.disabled = emptySlots(form).length > 0; }
    });
  }
  function fill(slot, code) {
    slot.querySelector("input").value = code;
    slot.querySelector(".face").textContent = pretty(code);
    slot.classList.toggle("filled", !!code);
    slot.classList.toggle("red", !!code && /[hd]$/.test(code));
  }
  function pickRank(rank) {
    var p = document.getElementById("picker");
    if (p) { p.dataset.rank = rank; refresh(); }
  }
  function pickSuit(suit) {
    var p = document.getElementById("picker");
    if (!p || !p.dataset.rank) { return; }
    var code = p.dataset.rank + suit;
    var group = activeGroup();
    if (!group || !available(code)) { return; }
    var slot = emptySlots(group)[0];
    if (slot) { fill(slot, code); }
    p.dataset.rank = "";
    if (!emptySlots(group).length) {
      var next = groups().filter(function (g) { return g !== group && emptySlots(g).length && g.closest("form.capsa"); })[0];
      if (next) { setActive(next); }
    }
    refresh();
  }
  function undo() {
    var group = activeGroup();
    var slots = group ? Array.prototype.filter.call(group.querySelectorAll("[data-slot]"), function (s) {
      return s.querySelector("input").value && !s.classList.contains("fixed");
    }) : [];
    if (slots.length) { fill(slots[slots.length - 1], ""); }
    refresh();
  }
  function prettyAll() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-slot]"), function (s) {
      fill(s, s.querySelector("input").value);
    });
    refresh();
  }

  document.addEventListener("click", function (e) {
    var t = e.target.closest ? e.target.closest("button, [data-slot], [data-slots]") : null;
    if (!t) { return; }
    if (t.dataset.rank) { pickRank(t.dataset.rank); return; }
    if (t.dataset.suit) { pickSuit(t.dataset.suit); return; }
    if (t.hasAttribute("data-clear")) { undo(); return; }
    if (t.hasAttribute("data-slot")) {
      var group = t.closest("[data-slots]");
      if (!t.classList.contains("fixed") && t.querySelector("input").value) { fill(t, ""); }
      setActive(group);
      refresh();
      return;
    }
    if (t.hasAttribute("data-slots")) { setActive(t); refresh(); return; }
    // --- 4. spread-limit amount: chip steps and quick amounts
    var form = t.closest("form.spread");
    if (form && (t.dataset.delta || t.dataset.set)) {
      var range = spreadRange(form);
      var step = parseInt(range.dataset.step || "100", 10);
      spreadSet(form, t.dataset.set ? parseInt(t.dataset.set, 10) : parseInt(range.value, 10) + parseInt(t.dataset.delta, 10) * step);
    }
  });
  // The amount is whole cents (the range input's value, sent as to_cents); it moves in whole chips from the
  // minimum, and the maximum (e.g. an all-in) is always reachable.
  function spreadRange(form) { return form.querySelector("input[name=to_cents]"); }
  // As the money filter writes it: thousands grouped by the page language's separator (12.345,00 / 12,345.00).
  function cents(v, sep, group) {
    var whole = String(Math.floor(v / 100)), part = v % 100;
    if (group) { whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group); }
    return whole + sep + (part < 10 ? "0" : "") + part;
  }
  function spreadSet(form, value) {
    var range = spreadRange(form);
    var lo = parseInt(range.min, 10), hi = parseInt(range.max, 10), step = parseInt(range.dataset.step || "100", 10) || 1;
    var v = isNaN(value) ? lo : value;
    if (v >= hi) { v = hi; } else if (v <= lo) { v = lo; } else { v = lo + Math.round((v - lo) / step) * step; if (v > hi) { v = hi; } }
    range.value = String(v);
    var sep = form.dataset.decimal || ".";  // the page language's decimal separator (the money filter's)
    var group = form.dataset.group || "";  // ... and its thousands separator
    var already = parseInt(form.dataset.already || "0", 10) || 0;
    range.setAttribute("aria-valuetext", cents(v, sep, group));
    Array.prototype.forEach.call(form.querySelectorAll("[data-to-label]"), function (l) { l.textContent = cents(v, sep, group); });
    form.querySelector("[data-add-label]").textContent = cents(Math.max(0, v - already), sep, group);
    Array.prototype.forEach.call(form.querySelectorAll("[data-set]"), function (b) {
      b.classList.toggle("chosen", parseInt(b.dataset.set, 10) === v);
    });
  }
  document.addEventListener("input", function (e) {
    var form = e.target.closest ? e.target.closest("form.spread") : null;
    if (form && e.target.name === "to_cents") { spreadSet(form, parseInt(e.target.value, 10)); }
  });
  // Keyboard on the slider: arrows one chip, Page Up/Down five, Home/End the minimum/maximum.
  document.addEventListener("keydown", function (e) {
    var range = e.target;
    if (!range.matches || !range.matches("form.spread input[name=to_cents]")) { return; }
    var step = parseInt(range.dataset.step || "100", 10), v = parseInt(range.value, 10);
    var moves = { ArrowUp: step, ArrowRight: step, ArrowDown: -step, ArrowLeft: -step, PageUp: 5 * step, PageDown: -5 * step };
    var form = range.closest("form.spread");
    if (e.key in moves) { spreadSet(form, v + moves[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { spreadSet(form, parseInt(range.min, 10)); e.preventDefault(); }
    else if (e.key === "End") { spreadSet(form, parseInt(range.max, 10)); e.preventDefault(); }
  });

  document.addEventListener("keydown", function (e) {
    var tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (!document.getElementById("picker")) { return; }
    var key = e.key;
    if (RANK_KEYS.indexOf(key.toUpperCase()) >= 0 && key.length === 1 && "cdhs".indexOf(key) < 0) {
      pickRank(key.toUpperCase()); e.preventDefault(); return;
    }
    if (key.length === 1 && "cdhs".indexOf(key.toLowerCase()) >= 0) { pickSuit(key.toLowerCase()); e.preventDefault(); return; }
    if (key === "Backspace") { undo(); e.preventDefault(); return; }
    if (key === "Enter") {
      var group = activeGroup();
      var form = group && group.closest("form");
      if (form && form.matches("form[data-slots]") && !emptySlots(form).length) { e.preventDefault(); form.requestSubmit(); }
    }
  });

  // Opening the exposed-card form makes it the picker's target; closing it gives the picker back.
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.matches || !d.matches("details.exposure")) { return; }
    var form = d.querySelector("[data-slots]");
    setActive(d.open ? form : groups()[0] || null);
    refresh();
  }, true);

  document.addEventListener("htmx:afterSwap", function () {
    prettyAll();
    var news = document.querySelector("#hand .refusal, #hand .notice, #hand .preview");
    if (news && news.scrollIntoView) { news.scrollIntoView({ block: "nearest" }); }
  });
  document.addEventListener("DOMContentLoaded", function () { configure(); prettyAll(); });
}());
