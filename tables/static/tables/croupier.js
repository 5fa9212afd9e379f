/* The croupier's table screen (issue 15): the little the page needs beyond htmx.
   1. Every tap gets an idempotency key when it is tapped (kept on its form), so a retry sends the SAME key
      and the server logs the action once.
   2. A request that fails on the network is "not yet sent": the hand is greyed, a banner says so, and the
      same request (same key) is retried until it lands or the croupier is told and can retry by hand.
   3. The card picker: tap a rank, then a suit (or type them); only unseen cards are offered.
   4. The spread-limit amount picker (- / + / min / max). */
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
  function groups() { return Array.prototype.slice.call(document.querySelectorAll("[data-slots]")); }
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
    // --- 4. spread-limit amount
    var form = t.closest("form.spread");
    if (form && (t.dataset.step || t.dataset.set)) {
      var input = form.querySelector("input[name=to]");
      if (t.dataset.set) { input.value = t.dataset.set; } else if (t.dataset.step === "1") { input.stepUp(); } else { input.stepDown(); }
      spreadLabel(form);
    }
  });
  function spreadLabel(form) {
    var input = form.querySelector("input[name=to]");
    var to = parseFloat(input.value || "0");
    var already = parseFloat(form.dataset.already || "0");
    var comma = form.dataset.decimal || ".";  // the page language's decimal separator (the money filter's)
    form.querySelector("[data-to-label]").textContent = to.toFixed(2).replace(".", comma);
    form.querySelector("[data-add-label]").textContent = Math.max(0, to - already).toFixed(2).replace(".", comma);
  }
  document.addEventListener("input", function (e) {
    var form = e.target.closest ? e.target.closest("form.spread") : null;
    if (form) { spreadLabel(form); }
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

  document.addEventListener("htmx:afterSwap", function () {
    prettyAll();
    var news = document.querySelector("#hand .refusal, #hand .notice, #hand .preview");
    if (news && news.scrollIntoView) { news.scrollIntoView({ block: "nearest" }); }
  });
  document.addEventListener("DOMContentLoaded", function () { configure(); prettyAll(); });
}());
