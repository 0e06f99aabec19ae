// Tiny element builders: the charts are plain SVG and the tables plain HTML, built by hand.

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else {
      node.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of [children].flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svg(name, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, name), attrs, children);
}

export function html(name, attrs, ...children) {
  return fill(document.createElement(name), attrs, children);
}

// A linear scale from a domain of numbers (days, shares) to pixels.
export function scale(domainLow, domainHigh, rangeLow, rangeHigh) {
  const span = domainHigh - domainLow || 1;
  const map = (value) => rangeLow + ((value - domainLow) / span) * (rangeHigh - rangeLow);
  map.range = [rangeLow, rangeHigh];
  map.invert = (pixel) => domainLow + ((pixel - rangeLow) / (rangeHigh - rangeLow)) * span;
  return map;
}

export function clear(node) {
  node.replaceChildren();
  return node;
}
