// Pan and zoom for a picture in a viewport, as the tree has them: drag to pan, the wheel zooms about the pointer,
// + and - zoom and the arrow keys pan when the viewport has the focus, `fit()` shows all of it.
const MIN = 0.02, MAX = 8;

export function zoomable(viewport, canvas) {
  const view = { x: 0, y: 0, k: 1 };
  const apply = () => { canvas.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.k})`; };
  const zoomAbout = (px, py, k) => {
    k = Math.min(MAX, Math.max(MIN, k));
    view.x = px - (px - view.x) * (k / view.k);
    view.y = py - (py - view.y) * (k / view.k);
    view.k = k;
    apply();
  };
  let drag = null;
  viewport.addEventListener("pointerdown", (event) => {
    if (event.button !== 0 || (event.target.closest && event.target.closest("a"))) return;
    drag = { x: event.clientX, y: event.clientY, start: { ...view } };
  });
  window.addEventListener("pointermove", (event) => {
    if (!drag) return;
    view.x = drag.start.x + event.clientX - drag.x;
    view.y = drag.start.y + event.clientY - drag.y;
    apply();
  });
  window.addEventListener("pointerup", () => { drag = null; });
  viewport.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = viewport.getBoundingClientRect();
    zoomAbout(event.clientX - box.left, event.clientY - box.top, view.k * Math.exp(-event.deltaY * 0.0015));
  }, { passive: false });
  viewport.addEventListener("keydown", (event) => {
    const box = viewport.getBoundingClientRect();
    const step = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] }[event.key];
    if (event.key === "+" || event.key === "=") zoomAbout(box.width / 2, box.height / 2, view.k * 1.25);
    else if (event.key === "-") zoomAbout(box.width / 2, box.height / 2, view.k / 1.25);
    else if (step) { view.x += step[0]; view.y += step[1]; apply(); } else return;
    event.preventDefault();
  });
  function fit() {
    const svg = canvas.querySelector("svg");
    if (!svg) return;
    const box = viewport.getBoundingClientRect();
    const width = svg.width.baseVal.value || 1, height = svg.height.baseVal.value || 1;
    view.k = Math.min(2, Math.max(MIN, Math.min((box.width - 20) / width, (box.height - 20) / height)));
    view.x = (box.width - width * view.k) / 2;
    view.y = Math.max(10, (box.height - height * view.k) / 2);
    apply();
  }
  return { fit, view, zoomAbout };
}
