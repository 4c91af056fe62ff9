// Evaluated by Playwright in the main world of the locator's frame, on its element: the path
// to it from the top document, as element-child indices, with 's' entering an open shadow
// root and 'f' entering a same-origin frame's document. The engine's world walks it back
// (driver.js `walk`); the path is used at once and never stored. Node types, not
// `instanceof`: every frame has constructors of its own. A frame of another origin hides its
// `<iframe>` (`frameElement` is null there): the path then starts at that frame's document
// and `crossed` says so; the driver asks again from the `<iframe>`, in the parent frame.
(element) => {
  const path = [];
  let node = element;
  for (;;) {
    const parent = node.parentNode;
    if (parent && parent.nodeType === 11 && parent.host) {
      path.push(Array.prototype.indexOf.call(parent.children, node), 's');
      node = parent.host;
    } else if (parent && parent.nodeType === 9) {
      path.push(Array.prototype.indexOf.call(parent.children, node));
      const view = parent.defaultView;
      const frame = view && view.frameElement;
      if (!frame) return { path: path.reverse(), crossed: !!view && view !== view.top };
      path.push('f');
      node = frame;
    } else if (parent) {
      path.push(Array.prototype.indexOf.call(parent.children, node));
      node = parent;
    } else {
      return null;
    }
  }
}
