// A wide table's hint ("scroll sideways") shows only while some of its columns are out of view.
function markHiddenColumns() {
  for (const wrap of document.querySelectorAll(".table-wrap")) {
    const hint = wrap.previousElementSibling;
    if (hint && hint.classList.contains("scroll-hint")) {
      hint.hidden = wrap.scrollWidth <= wrap.clientWidth + 1;
    }
  }
}
addEventListener("load", markHiddenColumns);
addEventListener("resize", markHiddenColumns);
