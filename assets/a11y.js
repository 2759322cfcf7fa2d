// Names for a screen reader of every control Panel and Bokeh draw without one (issue 36,
// labs/server/a11y.py). Their widgets live in shadow roots, where a number box's step
// buttons, a slider's handle, a select or box whose label sits in a sibling component (an
// editable slider's title, a knob's heading) have no accessible name. This script walks
// every open shadow root once the page is drawn, and again after each change (one observer
// per root, a walk at most every SWEEP_MS), and sets:
//   a box's, select's or slider's aria-label (its own label, else the text just before it),
//   "Increase <name>" / "Decrease <name>" on the step buttons (left out of the tab order:
//   the arrow keys step the box itself), a button group's role and name, each choice's and
//   toggle's aria-pressed (the chosen one is not told by its colour alone), a checkbox's
//   name from its label.
// Every page loads this file in its head; each session's document runs the same text once
// drawn (a course page that embeds a lab may not have loaded it): window.labA11y, once.
(() => {
  if (window.labA11y) { window.labA11y.schedule(); return; }
  const SWEEP_MS = 120;
  const MAX_NAME = 80;  // longer text before a control is prose, not its name
  const observed = new WeakSet();
  const state = { pending: false, sweeps: 0, last: 0 };

  const clean = (text) => text.replace(/\s+/g, " ").trim().replace(/[:\s]+$/, "");

  // The text a person sees in ``node``, through shadow roots, without styles or scripts.
  const deepText = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { return node.textContent; }
    if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) { return ""; }
    const tag = node.tagName ? node.tagName.toLowerCase() : "";
    if (tag === "style" || tag === "script" || tag === "select" || tag === "option") { return ""; }
    let text = node.shadowRoot ? Array.from(node.shadowRoot.childNodes, deepText).join(" ") : "";
    return text + " " + Array.from(node.childNodes, deepText).join(" ");
  };

  // A widget's own label inside its shadow root: Bokeh's <label>, slider title or checkbox text.
  const ownLabel = (root) => {
    const label = root.querySelector("label, .bk-slider-title, .bk-label");
    if (!label) { return ""; }
    const copy = label.cloneNode(true);
    copy.querySelectorAll(".bk-description, .bk-slider-value").forEach((part) => part.remove());
    return clean(copy.textContent);
  };

  // Whether ``node`` holds controls of its own: any button but a number box's steppers, a
  // select, or more than one box (an editable slider's title and box is one control's).
  const holdsOtherControls = (node) => {
    let buttons = 0, selects = 0, boxes = 0;
    const count = (root) => {
      for (const element of root.querySelectorAll("button:not(.bk-spin-btn), select, input, textarea")) {
        const tag = element.tagName.toLowerCase();
        if (tag === "button") { buttons += 1; } else if (tag === "select") { selects += 1; } else { boxes += 1; }
      }
      for (const element of root.querySelectorAll("*")) {
        if (element.shadowRoot) { count(element.shadowRoot); }
      }
    };
    if (node.shadowRoot) { count(node.shadowRoot); }
    count(node);
    return buttons > 0 || selects > 0 || boxes > 1;
  };

  // The short text just before ``host`` (a sibling heading or title), up to two containers up.
  const contextName = (host) => {
    let node = host;
    for (let level = 0; level < 3 && node; level += 1) {
      let before = node.previousElementSibling;
      for (let step = 0; step < 2 && before; step += 1, before = before.previousElementSibling) {
        // another control's words (a button group, a select beside a box) never name this one
        if (holdsOtherControls(before)) { return ""; }
        const text = clean(deepText(before));
        if (text && text.length <= MAX_NAME) { return text; }
        if (text) { break; }
      }
      const root = node.getRootNode();
      node = root && root.host ? root.host : null;
    }
    return "";
  };

  // A name set in Python (labs/page/a11y.py's --aria-name) on this host itself, not inherited.
  const givenName = (host) => {
    const read = (element) => (element ? getComputedStyle(element).getPropertyValue("--aria-name").trim() : "");
    const own = read(host);
    const root = host.getRootNode();
    const parent = host.parentElement || (root && root.host) || null;
    if (!own || own === read(parent)) { return ""; }
    try { return String(JSON.parse(own)); } catch (error) { return own.replace(/^["']|["']$/g, ""); }
  };

  const setAttr = (element, name, value) => {
    if (value && element.getAttribute(name) !== value) { element.setAttribute(name, value); }
  };

  // A slider's position in words: the count a log-scale slider stands for (its position is a
  // power of ten), else the value its title shows ("16", "30%"), not noUiSlider's "3.08".
  const valueWords = (root, handle) => {
    if (root.host.classList.contains("log-scale")) {
      // the handle's own figure is rounded to a tenth of a decade; the slider's is exact
      const target = root.querySelector(".noUi-target");
      const slider = target && target.noUiSlider;
      const now = Number(slider ? slider.get(true) : NaN);
      if (!Number.isFinite(now)) { return ""; }
      // three significant figures inside the range, as the lab rounds a slid count
      // (labs/widgets/knobs.py, round_figures)
      const low = Math.round(10 ** slider.options.range.min);
      const high = Math.round(10 ** slider.options.range.max);
      const count = Math.min(Math.max(Number((10 ** now).toPrecision(3)), low), high);
      return count.toLocaleString("en-US");
    }
    const shown = root.querySelector(".bk-slider-value");
    return shown ? shown.textContent.trim() : "";
  };
  const spokenSliders = new WeakSet();
  const speakValue = (root, handle) => {
    const say = () => setAttr(handle, "aria-valuetext", valueWords(root, handle));
    say();
    if (spokenSliders.has(handle)) { return; }
    spokenSliders.add(handle);
    // noUiSlider writes its own text on every move; ours follows it
    new MutationObserver(() => setTimeout(say, 0)).observe(handle, {
      attributes: true, attributeFilter: ["aria-valuenow"],
    });
  };

  const nameWidget = (host) => {
    const root = host.shadowRoot;
    const controls = root.querySelectorAll(
      "input.bk-input, select, textarea, [role=slider], .bk-spin-btn, input[type=checkbox]");
    const groups = root.querySelectorAll(".bk-btn-group");
    if (!controls.length && !groups.length) { return; }
    let name = givenName(host) || ownLabel(root);
    const named = () => name || (name = contextName(host));
    for (const control of controls) {
      if (control.classList.contains("bk-spin-btn")) {
        const up = control.classList.contains("bk-spin-btn-up");
        setAttr(control, "aria-label", `${up ? "Increase" : "Decrease"} ${named() || "the value"}`);
        setAttr(control, "tabindex", "-1");
      } else if (named()) {
        setAttr(control, "aria-label", name);
      }
      if (control.getAttribute("role") === "slider") { speakValue(root, control); }
    }
    for (const group of groups) {
      const buttons = group.querySelectorAll("button");
      const choices = buttons.length > 1 || /Toggle/.test(host.className);
      if (!choices) { continue; }
      if (buttons.length > 1) {
        setAttr(group, "role", "group");
        if (named()) { setAttr(group, "aria-label", name); }
      }
      for (const button of buttons) {
        setAttr(button, "aria-pressed", button.classList.contains("bk-active") ? "true" : "false");
      }
    }
  };

  // -- charts: a name and their figures in words (a canvas says nothing to a screen reader) --
  const MAX_LISTED = 8;  // a column with this many rows or fewer is read out whole
  const sourcesWatched = new WeakSet();
  const figure = (value) => (typeof value === "number" && Number.isFinite(value)
    ? Number(value.toPrecision(3)).toLocaleString("en-US") : String(value));
  const axisLabel = (axes) => (Array.isArray(axes) ? axes : []).map((axis) => axis.axis_label || "").filter(Boolean).join(", ");

  const columnWords = (name, values) => {
    const list = Array.from(values);
    if (!list.length) { return ""; }
    const numbers = list.filter((value) => typeof value === "number" && Number.isFinite(value));
    if (numbers.length === list.length) {
      if (list.length <= MAX_LISTED) { return `${name}: ${list.map(figure).join(", ")}`; }
      return `${name}: from ${figure(Math.min(...numbers))} to ${figure(Math.max(...numbers))}`;
    }
    const words = [...new Set(list.map(String))];
    return words.length <= MAX_LISTED ? `${name}: ${words.join(", ")}` : "";
  };

  // One sentence per chart: its title or axes, its legend, and each column's figures.
  const chartWords = (model) => {
    const title = model.title && model.title.text ? model.title.text : "";
    const y = axisLabel(model.left) || axisLabel(model.right);
    const x = axisLabel(model.below) || axisLabel(model.above);
    const name = title || (y && x ? `${y} against ${x}` : y || x || "chart");
    const legend = [];
    for (const item of Array.isArray(model.center) ? model.center : []) {
      for (const entry of item.items || []) {
        const label = entry.label && (entry.label.value || entry.label.field);
        if (label) { legend.push(label); }
      }
    }
    const columns = [];
    const seen = new Set();
    for (const renderer of model.renderers || []) {
      const source = renderer.data_source;
      if (!source || !source.data || seen.has(source)) { continue; }
      seen.add(source);
      if (!sourcesWatched.has(source)) { sourcesWatched.add(source); source.change.connect(schedule); }
      const data = source.data instanceof Map ? source.data.entries() : Object.entries(source.data);
      for (const [column, values] of data) {
        if (!/colou?r|alpha|marker|^index$|^_/.test(column)) { columns.push(columnWords(column.replace(/_/g, " "), values)); }
      }
    }
    const parts = [`Chart: ${name}.`];
    if (legend.length) { parts.push(`Series: ${legend.join(", ")}.`); }
    const figures = columns.filter(Boolean).slice(0, 8);
    if (figures.length) { parts.push(`Figures: ${figures.join("; ")}.`); }
    return { name, text: parts.join(" ") };
  };

  const describeCharts = () => {
    if (!window.Bokeh || !Bokeh.index || !Bokeh.index.all_views) { return; }
    for (const view of Bokeh.index.all_views()) {
      const model = view.model;
      // a plot: its renderers and its axes' sides are lists (other models share the names)
      const plot = model && Array.isArray(model.renderers) && Array.isArray(model.left) && Array.isArray(model.below);
      if (!plot || !view.el || !view.el.shadowRoot) { continue; }
      const { name, text } = chartWords(model);
      setAttr(view.el, "role", "figure");
      setAttr(view.el, "aria-label", `Chart: ${name}`);
      // (":scope >" matches nothing in a shadow root: look among its own children)
      let caption = Array.from(view.el.shadowRoot.children).find((child) => child.classList.contains("lab-chart-words"));
      if (!caption) {
        caption = document.createElement("div");
        caption.className = "lab-chart-words";
        Object.assign(caption.style, {
          position: "absolute", width: "1px", height: "1px", overflow: "hidden",
          clipPath: "inset(50%)", whiteSpace: "nowrap",
        });
        view.el.shadowRoot.appendChild(caption);
      }
      if (caption.textContent !== text) { caption.textContent = text; }
    }
  };

  const observe = (root) => {
    if (observed.has(root)) { return; }
    observed.add(root);
    new MutationObserver(schedule).observe(root, {
      childList: true, subtree: true, attributes: true, attributeFilter: ["class"],
    });
  };

  const walk = (root) => {
    for (const element of root.querySelectorAll("*")) {
      if (element.shadowRoot) {
        observe(element.shadowRoot);
        nameWidget(element);
        walk(element.shadowRoot);
      }
    }
  };

  const sweep = () => {
    state.pending = false;
    walk(document);
    try { describeCharts(); } catch (error) { console.warn("chart words:", error); }
    state.sweeps += 1;
    state.last = performance.now();
  };

  function schedule() {
    if (state.pending) { return; }
    state.pending = true;
    setTimeout(sweep, SWEEP_MS);
  }

  window.labA11y = { schedule, state, sweep };
  observe(document);
  schedule();
})();
