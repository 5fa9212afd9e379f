// Hide the limit-form fields that do not apply under the chosen mode (data-shown-when = {"field": [values]}).
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("form.limit-form").forEach((form) => {
    const value = (name) => {
      const checked = form.querySelector(`[name="${name}"]:checked`);
      if (checked) return checked.value;
      const el = form.querySelector(`[name="${name}"]`);
      return el ? el.value : null;
    };
    const update = () => form.querySelectorAll("[data-shown-when]").forEach((div) => {
      const when = JSON.parse(div.dataset.shownWhen);
      div.hidden = !Object.entries(when).every(([name, values]) => value(name) === null || values.includes(value(name)));
    });
    form.addEventListener("change", update);
    update();
  });
});

// Numbers with a unit (%, raises): mark a value outside the range of the config description while typing
// (the server checks again and names the field, the range and the unit).
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".with-unit input").forEach((input) => {
    const low = Number(input.dataset.min ?? input.min), high = Number(input.dataset.max ?? input.max);
    const check = () => {
      const text = input.value.trim().replace(/\s*%$/, "").replace(/\s/g, "");
      const number = Number(document.documentElement.lang.startsWith("de") ? text.replace(/\./g, "").replace(",", ".")
                                                                            : text.replace(",", "."));
      const bad = text !== "" && (Number.isNaN(number) || (input.min !== "" || input.dataset.min) && number < low
                                  || (input.max !== "" || input.dataset.max) && number > high);
      input.classList.toggle("out-of-range", bad);
      input.setAttribute("aria-invalid", bad ? "true" : "false");
    };
    input.addEventListener("input", check);
    check();
  });
});
