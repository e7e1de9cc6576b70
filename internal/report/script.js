// Optional conveniences; the page reads the same without them.
(function () {
  "use strict";
  var files = document.querySelectorAll("details.file");
  if (!files.length) { return; }
  var bar = document.createElement("p");
  bar.className = "tools";
  var only = document.createElement("label");
  var box = document.createElement("input");
  box.type = "checkbox";
  box.id = "only-uncovered";
  only.appendChild(box);
  only.appendChild(document.createTextNode(" source: only lines with outcomes not taken"));
  bar.appendChild(only);
  var header = document.querySelector("header");
  header.appendChild(bar);
  box.addEventListener("change", function () {
    document.querySelectorAll("table.src tbody tr").forEach(function (tr) {
      var keep = tr.classList.contains("part") || tr.classList.contains("none") || tr.classList.contains("dead") || tr.classList.contains("why");
      tr.style.display = box.checked && !keep ? "none" : "";
    });
  });
  // Open the file a link points into, so that the line is shown.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var el = document.getElementById(id);
    if (!el) { return; }
    var d = el.closest("details");
    if (d && !d.open) { d.open = true; el.scrollIntoView(); }
  }
  window.addEventListener("hashchange", reveal);
  reveal();
})();
