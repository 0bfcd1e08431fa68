// A link of the error banner opens the folded section of its field and puts the cursor in it.
document.addEventListener("click", (event) => {
  const link = event.target.closest(".error-summary a[href^='#']");
  if (!link) return;
  const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!target) return;
  event.preventDefault();
  for (let node = target.parentElement; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  target.scrollIntoView({ block: "center" });
  target.focus({ preventScroll: true });
  history.replaceState(null, "", link.hash);
});
