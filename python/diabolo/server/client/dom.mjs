// A very small virtual DOM: h() describes elements, patch() brings a container's children
// in line with a description while keeping the elements that stay (matched by `key`, or
// by position and tag). Kept elements keep their focus, their CSS transitions and any
// click in progress; new ones play their CSS entry animation once, when an event put them
// on the table. An <svg> and everything in it are made in the SVG namespace (an element
// made by createElement("svg") is an unknown HTML element, and draws nothing).

const SVG = "http://www.w3.org/2000/svg";

/** An element's description: h("div", {class: "card", "data-card": "R1", on: {click}}, ...children). */
export function h(tag, props, ...children) {
  return { tag, props: props || {}, children: normalize(children) };
}

function normalize(children) {
  const out = [];
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false || child === true) continue;
    out.push(typeof child === "object" ? child : String(child));
  }
  return out;
}

/** Makes `parent`'s children those of `vnodes` (a description or a list of them). */
export function patch(parent, vnodes) {
  const wanted = normalize([vnodes]);
  const keyed = new Map();
  for (const node of parent.childNodes) if (node.__key !== undefined) keyed.set(node.__key, node);
  const used = new Set();
  wanted.forEach((vnode, index) => {
    const here = parent.childNodes[index] || null;
    let node = null;
    if (typeof vnode === "string") {
      if (here && here.nodeType === Node.TEXT_NODE && !used.has(here)) node = here;
      if (node) {
        if (node.nodeValue !== vnode) node.nodeValue = vnode;
      } else node = document.createTextNode(vnode);
    } else {
      const key = vnode.props.key;
      if (key !== undefined) {
        const candidate = keyed.get(key);
        if (candidate && candidate.__tag === vnode.tag && !used.has(candidate)) node = candidate;
      } else if (here && here.__tag === vnode.tag && here.__key === undefined && !used.has(here)) {
        node = here;
      }
      if (!node) {
        const drawing = vnode.tag === "svg" || (parent.namespaceURI === SVG && parent.localName !== "foreignObject");
        node = drawing ? document.createElementNS(SVG, vnode.tag) : document.createElement(vnode.tag);
        node.__tag = vnode.tag;
        if (key !== undefined) node.__key = key;
      }
      update(node, vnode);
    }
    used.add(node);
    if (parent.childNodes[index] !== node) parent.insertBefore(node, parent.childNodes[index] || null);
  });
  while (parent.childNodes.length > wanted.length) parent.removeChild(parent.lastChild);
}

function update(node, vnode) {
  const before = node.__attrs || new Set();
  const now = new Set();
  for (const [name, value] of Object.entries(vnode.props)) {
    if (name === "key") continue;
    if (name === "on") {
      node.__on = value;
      node.__listening = node.__listening || new Set();
      for (const type of Object.keys(value)) {
        if (!node.__listening.has(type)) {
          node.__listening.add(type);
          node.addEventListener(type, (event) => node.__on?.[type]?.(event));
        }
      }
      continue;
    }
    if (name === "value" || name === "checked") {
      if (node[name] !== value) node[name] = value;
      continue;
    }
    if (value === null || value === undefined || value === false) continue;
    now.add(name);
    const text = value === true ? "" : String(value);
    if (node.getAttribute(name) !== text) node.setAttribute(name, text);
  }
  for (const name of before) if (!now.has(name)) node.removeAttribute(name);
  node.__attrs = now;
  if (!vnode.props.on && node.__on) node.__on = null;
  patch(node, vnode.children);
}
