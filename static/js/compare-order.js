// Compare forms send the scenarios in the order they were ticked (the page order otherwise):
// a form marked data-keep-order (its value: the ids already chosen, in order, comma-separated),
// and the checkboxes that belong to it, named "ids".
(function () {
  "use strict";
  document.querySelectorAll("form[data-keep-order]").forEach(function (form) {
    var boxes = function () {
      return Array.prototype.filter.call(
        document.querySelectorAll('input[type="checkbox"][name="ids"]'),
        function (box) { return box.form === form; }
      );
    };
    var checked = boxes().filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    var given = (form.getAttribute("data-keep-order") || "").split(",").filter(function (value) {
      return checked.indexOf(value) >= 0;
    });
    var ticked = given.concat(checked.filter(function (value) { return given.indexOf(value) < 0; }));
    boxes().forEach(function (box) {
      box.addEventListener("change", function () {
        ticked = ticked.filter(function (value) { return value !== box.value; });
        if (box.checked) ticked.push(box.value);
      });
    });
    form.addEventListener("submit", function () {
      form.querySelectorAll("input[data-ticked]").forEach(function (input) { input.remove(); });
      boxes().forEach(function (box) { box.disabled = true; });
      ticked.forEach(function (value) {
        var input = document.createElement("input");
        input.type = "hidden";
        input.name = "ids";
        input.value = value;
        input.setAttribute("data-ticked", "");
        form.appendChild(input);
      });
      // Enabled again for the page the browser keeps in its history (back button).
      setTimeout(function () { boxes().forEach(function (box) { box.disabled = false; }); }, 0);
    });
  });
})();
