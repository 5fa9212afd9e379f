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
