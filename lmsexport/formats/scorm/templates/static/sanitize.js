/* lmsexport quiz player: allow-list sanitiser for quiz text written as HTML.
 *
 * The fragment is parsed by DOMParser into an inert document (its scripts never run,
 * its images never load, so no onerror fires), then rebuilt in the live document from
 * allowed elements and attributes only. Whatever is not allowed is dropped with its
 * content (script, style, iframe, form controls ...) or unwrapped to its text (unknown
 * tags). Event handlers and style attributes never survive, nor does class, except a
 * code block's language (`language-python`); URLs must be relative or use http(s) /
 * mailto, and images may also be data:image URLs. MathML (the build turns TeX into it)
 * keeps the presentation elements of MathML Core and their layout attributes; no
 * MathML link, no annotation-xml (which can carry HTML), no SVG.
 */
(function (ns) {
  "use strict";

  const HTML = "http://www.w3.org/1999/xhtml";
  const MATHML = "http://www.w3.org/1998/Math/MathML";
  const DROP = new Set(["script", "style", "iframe", "frame", "frameset", "object", "embed",
    "applet", "template", "noscript", "noembed", "textarea", "select", "option", "button",
    "input", "form", "link", "meta", "base", "title", "svg", "audio", "video", "annotation-xml",
    "source", "track", "canvas", "dialog", "portal", "xmp", "plaintext", "noframes"]);
  const TAGS = new Set(["a", "abbr", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite",
    "code", "dd", "del", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h3", "h4",
    "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "rp",
    "rt", "ruby", "s", "samp", "small", "span", "strong", "sub", "sup", "table", "tbody",
    "td", "tfoot", "th", "thead", "tr", "u", "ul", "var", "wbr"]);
  const ATTRIBUTES = {
    "*": ["lang", "dir", "title"],
    a: ["href"],
    img: ["src", "alt", "width", "height"],
    ol: ["start", "reversed", "type"],
    td: ["colspan", "rowspan"],
    th: ["colspan", "rowspan", "scope"],
    del: ["datetime"],
    ins: ["datetime"],
  };
  const URL_ATTRIBUTES = new Set(["href", "src"]);
  const CODE_LANGUAGE = /^language-[\w+#.-]+$/;
  /** MathML Core's presentation elements (https://www.w3.org/TR/mathml-core/), and what they may carry. */
  const MATH_TAGS = new Set(["math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub",
    "msubsup", "mfrac", "msqrt", "mroot", "mover", "munder", "munderover", "mmultiscripts", "mprescripts",
    "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom", "merror", "semantics", "annotation"]);
  const MATH_ATTRIBUTES = new Set(["display", "displaystyle", "scriptlevel", "mathvariant", "dir",
    "stretchy", "fence", "separator", "form", "lspace", "rspace", "minsize", "maxsize", "largeop",
    "movablelimits", "symmetric", "accent", "accentunder", "linethickness", "width", "height", "depth",
    "voffset", "columnalign", "rowalign", "columnspan", "rowspan", "columnlines", "rowlines",
    "columnspacing", "rowspacing", "frame", "encoding", "alttext"]);
  const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
  const DATA_IMAGE = /^data:image\/(?:png|gif|jpeg|webp);base64,[a-z0-9+/=\s]*$/i;

  function safeUrl(value, attribute) {
    // Browsers ignore control characters and spaces inside a scheme: "java\tscript:".
    const compact = value.replace(/[\u0000-\u0020\u007f]+/g, "");
    const scheme = SCHEME.exec(compact);
    if (!scheme) return true;
    const name = scheme[1].toLowerCase();
    if (name === "http" || name === "https") return true;
    if (attribute === "href") return name === "mailto";
    return DATA_IMAGE.test(compact);
  }

  function copyAttributes(source, target) {
    const allowed = [...ATTRIBUTES["*"], ...(ATTRIBUTES[target.localName] || [])];
    for (const name of allowed) {
      const value = source.getAttribute(name);
      if (value === null) continue;
      if (URL_ATTRIBUTES.has(name) && !safeUrl(value, name)) continue;
      target.setAttribute(name, value);
    }
    const language = source.getAttribute("class");
    if (target.localName === "code" && language && CODE_LANGUAGE.test(language)) target.setAttribute("class", language);
    if (target.localName === "a" && target.hasAttribute("href")) {
      // Following a link inside the SCO's frame would unload the quiz (and end the session).
      target.setAttribute("target", "_blank");
      target.setAttribute("rel", "noopener noreferrer");
    }
  }

  /** The allowed copy of an element, empty, or null when only its content may stay. */
  function shell(node, doc) {
    if (node.namespaceURI === HTML && TAGS.has(node.localName)) {
      const element = doc.createElement(node.localName);
      copyAttributes(node, element);
      return element;
    }
    if (node.namespaceURI === MATHML && MATH_TAGS.has(node.localName)) {
      const element = doc.createElementNS(MATHML, node.localName);
      for (const attribute of node.attributes) {
        if (!attribute.namespaceURI && MATH_ATTRIBUTES.has(attribute.name)) {
          element.setAttribute(attribute.name, attribute.value);
        }
      }
      return element;
    }
    return null;
  }

  function rebuild(source, doc) {
    const out = doc.createDocumentFragment();
    for (const node of source.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) {
        out.append(doc.createTextNode(node.data));
      } else if (node.nodeType === Node.ELEMENT_NODE && !DROP.has(node.localName)) {
        const element = shell(node, doc);
        const children = rebuild(node, doc);
        if (element) element.append(children);
        out.append(element || children);
      }
    }
    return out;
  }

  /** A DocumentFragment of the live document holding only the allowed parts of `html`. */
  ns.sanitize = function (html) {
    const inert = new DOMParser().parseFromString(String(html), "text/html");
    return rebuild(inert.body, document);
  };
})(window.lmsexport = window.lmsexport || {});
