/* The course's live deck: a slide taller than the 1280 x 720 slide is laid out again until it
   fits, in this order (each step only while the slide is still too tall):

   1. a code cell with a figure (not a widget) shows its figure beside its code, the tallest such
      cell first: the slide is wide (16:9), a figure and its code are shown side by side;
   2. the tallest box left, an output (a long table, a long printout) or a cell's code, keeps the
      height that makes the slide fit and scrolls inside itself (never less than 160 px): a
      table longer than a slide is read by scrolling it, the slide's heading and code staying;
   3. on a widget's slide, the widget's code scrolls in a box of two lines, then the widget's
      output box scrolls: what comes first in a widget (its controls, its figure and its
      readout) stays in view, the tables below them are scrolled to.

   The slide is fitted when it is shown and when what it shows changes size (a widget drawn
   late, a figure redrawn); the classes it sets (ck-side, ck-scroll) are taken off first, so the
   same slide always gets the same layout. (Fitting is synchronous, and a ResizeObserver calls
   back only after it: a fit never runs inside another.)
   tests/test_slides_voila.py shows every slide of every chapter and checks that none scrolls. */
(function () {
  "use strict";
  const MIN_BOX = 160; // px: a box that scrolls shows at least six lines of code or text
  const WIDGET_CODE = 62; // px: a widget's code that scrolls shows two lines

  function tooTall(section) {
    return section.scrollHeight > section.clientHeight + 1;
  }

  function reset(section) {
    for (const e of section.querySelectorAll(".ck-side")) e.classList.remove("ck-side");
    for (const e of section.querySelectorAll(".ck-scroll")) {
      e.classList.remove("ck-scroll");
      e.style.maxHeight = "";
    }
  }

  function byHeight(elements) {
    return elements
      .map((e) => [e.getBoundingClientRect().height, e])
      .sort((a, b) => b[0] - a[0])
      .map((x) => x[1]);
  }

  function fit(section) {
    if (!section) return;
    reset(section);
    if (!tooTall(section)) return;
    const figures = [...section.querySelectorAll(".jp-CodeCell")].filter(
      (c) =>
        c.querySelector(".jp-Cell-inputWrapper") &&
        c.querySelector(".jp-OutputArea-output img") &&
        !c.querySelector(".jupyter-widgets")
    );
    for (const cell of byHeight(figures)) {
      cell.classList.add("ck-side");
      if (!tooTall(section)) return;
    }
    const widgetCells = [...section.querySelectorAll(".jp-CodeCell")].filter((c) =>
      c.querySelector(".jupyter-widgets")
    );
    const inWidgetCell = (b) => widgetCells.some((c) => c.contains(b));
    const boxes = [
      ...section.querySelectorAll(".jp-OutputArea-output, .jp-InputArea-editor"),
    ].filter((b) => !b.querySelector(".jupyter-widgets, img") && !inWidgetCell(b));
    for (const box of byHeight(boxes)) {
      if (shrink(section, box, MIN_BOX)) return;
    }
    for (const cell of widgetCells) {
      const code = cell.querySelector(".jp-InputArea-editor");
      if (code && shrink(section, code, WIDGET_CODE)) return;
    }
    for (const cell of widgetCells) {
      const output = cell.querySelector(".jp-OutputArea-output .jupyter-widgets");
      const box = output && output.closest(".jp-OutputArea-output");
      if (box && shrink(section, box, MIN_BOX)) return;
    }
  }

  /* The box keeps the height that makes the section fit (at least ``least`` px) and scrolls;
     true if the section fits then. A few passes: a box's margins and the slide's rounding are
     not known in advance. */
  function shrink(section, box, least) {
    for (let pass = 0; pass < 3 && tooTall(section); pass++) {
      const over = section.scrollHeight - section.clientHeight;
      const keep = Math.max(least, box.offsetHeight - over - 2);
      if (keep >= box.offsetHeight) break;
      box.classList.add("ck-scroll");
      box.style.maxHeight = `${keep}px`;
    }
    return !tooTall(section);
  }

  function present() {
    const all = document.querySelectorAll(".reveal .slides section.present");
    return all.length ? all[all.length - 1] : null;
  }

  let observed = null;
  const observer = new ResizeObserver(() => fit(present()));

  function shown() {
    const section = present();
    if (!section) return;
    if (observed !== section) {
      observer.disconnect();
      for (const child of section.children) observer.observe(child);
      observed = section;
    }
    fit(section);
  }

  function start() {
    const reveal = document.querySelector(".reveal");
    if (!reveal) return setTimeout(start, 100);
    for (const event of ["ready", "slidechanged", "resize"]) {
      reveal.addEventListener(event, shown);
    }
    shown();
  }
  window.coursekitFit = () => fit(present()); // for the browser test
  start();
})();
