// The few DOM types the in-page functions use. The project compiles without lib.dom
// (it is a Node program), and adding it globally would change everyone's types.
export interface DomNode {
  readonly nodeType: number;
  readonly nodeValue: string | null;
  readonly childNodes: ArrayLike<DomNode>;
  textContent: string | null;
}

export interface DomAttr {
  value: string;
}

export interface DomParent {
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): ArrayLike<DomElement>;
}

export interface DomElement extends DomNode, DomParent {
  readonly tagName: string;
  readonly id: string;
  readonly parentElement: DomElement | null;
  readonly firstElementChild: DomElement | null;
  readonly previousElementSibling: DomElement | null;
  readonly firstChild: DomNode | null;
  readonly outerHTML: string;
  lang: string;
  matches(selector: string): boolean;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  getAttributeNode(name: string): DomAttr | null;
  insertBefore(node: DomNode, before: DomNode | null): void;
  remove(): void;
}

export interface DomDocument extends DomParent {
  readonly baseURI: string;
  readonly title: string;
  readonly documentElement: DomElement;
  readonly body: DomElement | null;
  readonly doctype: { name: string; publicId: string; systemId: string } | null;
  readonly fonts: { ready: Promise<unknown> };
  readonly implementation: { createHTMLDocument(title: string): DomDocument };
  importNode(node: DomElement, deep: boolean): DomElement;
  replaceChild(node: DomElement, old: DomElement): void;
  createElement(tag: string): DomElement;
}

export const TEXT_NODE = 3;
export const ELEMENT_NODE = 1;
