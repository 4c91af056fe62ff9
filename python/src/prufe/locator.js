// Evaluated by Playwright in the main world of the locator's frame, on its element: the path
// to it from the top document in the engine's format (`prufe.identify`, `prufe.nodeAt`):
// child-node indices, 's' entering a host's open shadow root and 'f' a same-origin frame's
// document. The engine lives in another world, so the path is built here and walked there; it
// is used at once and never stored. Node types, not `instanceof`: every frame has constructors
// of its own. A frame of another origin hides its `<iframe>` (`frameElement` is null there):
// the path then starts at that frame's document and `crossed` says so; the driver asks again
// from the `<iframe>`, in the parent frame.
(element) => {
  const path = [];
  let node = element;
  for (;;) {
    const parent = node.parentNode;
    if (parent) {
      path.push(Array.prototype.indexOf.call(parent.childNodes, node));
      node = parent;
    } else if (node.nodeType === 11 && node.host) {
      path.push('s');
      node = node.host;
    } else if (node.nodeType === 9) {
      const view = node.defaultView;
      const frame = view && view.frameElement;
      if (!frame) return { path: path.reverse(), crossed: !!view && view !== view.top };
      path.push('f');
      node = frame;
    } else {
      return null;
    }
  }
}
