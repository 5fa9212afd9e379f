// The rotation grid's editing beyond picking a dealer in each cell's list (which always works):
// * "Swap by tapping" (touch, pen, mouse or keyboard): tap a dealer, then another table in the same period
//   (row): the two cells swap. Tap the picked cell again to cancel. Made for a tablet, where drag and drop
//   of table cells does not work.
// * With a mouse: drag a dealer onto another table in the same period to swap the two cells.
// A swap only happens when each dealer may deal the other table (both appear in the other cell's list).
document.addEventListener("DOMContentLoaded", () => {
  const grid = document.querySelector(".rotation-grid");
  if (!grid) return;
  const cells = [...grid.querySelectorAll("td.pick")];
  const toggle = document.getElementById("tap-mode");
  const status = document.getElementById("tap-status");
  const fill = (template, values) => template.replace(/%\((\w+)\)s/g, (_, key) => values[key] ?? "");
  const select = (td) => td.querySelector("select");
  const name = (td) => {
    const s = select(td);
    return s.value ? s.options[s.selectedIndex].text : grid.dataset.empty;
  };
  const fits = (a, b) => {
    const sa = select(a), sb = select(b);
    return [...sb.options].some((o) => o.value === sa.value) && [...sa.options].some((o) => o.value === sb.value);
  };
  const label = (td) => { td.querySelector("button.tap").textContent = name(td); };
  // A grid changed on the page is not saved: Publish would publish the saved plan, not what is shown,
  // so it waits until the grid is saved (the page then reloads with Publish enabled).
  const publish = document.getElementById("publish");
  const publishNote = document.getElementById("publish-note");
  const unsaved = () => {
    if (publish) publish.disabled = true;
    if (publishNote) publishNote.hidden = false;
  };
  const swap = (a, b) => {
    const sa = select(a), sb = select(b);
    const va = sa.value, vb = sb.value;
    sa.value = vb;
    sb.value = va;
    label(a);
    label(b);
    unsaved();
  };
  const say = (text) => { if (status) status.textContent = text; };

  let picked = null;
  const clear = () => {
    cells.forEach((td) => td.classList.remove("picked", "target"));
    picked = null;
  };
  const tap = (td) => {
    if (picked === td) { clear(); say(""); return; }
    if (picked && picked.dataset.p === td.dataset.p) {
      const a = picked;
      if (!fits(a, td)) { say(fill(grid.dataset.refused, { dealer: name(a) })); return; }
      const before = [name(a), name(td)];
      swap(a, td);
      clear();
      say(fill(grid.dataset.swapped, { time: td.dataset.time, a: before[0], b: before[1] }));
      return;
    }
    clear();
    picked = td;
    td.classList.add("picked");
    cells.forEach((other) => {
      if (other !== td && other.dataset.p === td.dataset.p && fits(td, other)) other.classList.add("target");
    });
    say(fill(grid.dataset.picked, { dealer: name(td), time: td.dataset.time }));
  };

  cells.forEach((td) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "tap";
    td.appendChild(button);
    label(td);
    button.addEventListener("click", () => tap(td));
    select(td).addEventListener("change", () => { label(td); unsaved(); });
  });
  if (toggle) {
    toggle.hidden = false;
    toggle.addEventListener("click", () => {
      const on = toggle.getAttribute("aria-pressed") !== "true";
      toggle.setAttribute("aria-pressed", on ? "true" : "false");
      grid.classList.toggle("tap-mode", on);
      clear();
      say("");
    });
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && picked) { clear(); say(""); } });

  // Mouse: HTML5 drag and drop between two cells of one period.
  let from = null;
  cells.forEach((td) => {
    td.addEventListener("dragstart", (e) => { from = td; e.dataTransfer.effectAllowed = "move"; });
    td.addEventListener("dragover", (e) => { if (from && from.dataset.p === td.dataset.p) e.preventDefault(); });
    td.addEventListener("drop", (e) => {
      e.preventDefault();
      if (from && from !== td && from.dataset.p === td.dataset.p && fits(from, td)) swap(from, td);
      from = null;
    });
  });
});
