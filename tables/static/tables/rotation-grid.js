// Drag a dealer onto another table in the same period to swap the two cells (picking works without it).
document.addEventListener("DOMContentLoaded", () => {
  let from = null;
  document.querySelectorAll(".rotation-grid td.pick").forEach((td) => {
    td.addEventListener("dragstart", (e) => { from = td; e.dataTransfer.effectAllowed = "move"; });
    td.addEventListener("dragover", (e) => { if (from && from.dataset.p === td.dataset.p) e.preventDefault(); });
    td.addEventListener("drop", (e) => {
      e.preventDefault();
      if (!from || from === td || from.dataset.p !== td.dataset.p) return;
      const a = from.querySelector("select"), b = td.querySelector("select");
      const va = a.value, vb = b.value;
      if ([...b.options].some((o) => o.value === va) && [...a.options].some((o) => o.value === vb)) { a.value = vb; b.value = va; }
      from = null;
    });
  });
});
