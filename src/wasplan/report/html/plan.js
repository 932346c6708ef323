(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("plan-data").textContent);
  var map = document.getElementById("map");
  var tiles = Array.prototype.slice.call(map.querySelectorAll(".t"));
  var status = document.getElementById("sel-status");
  var detail = document.getElementById("detail");
  var search = document.getElementById("search");
  var lit = [];
  var found = [];

  function tile(i) { return document.getElementById("n" + i); }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function details(i, t) {
    var r = data.nodes[i], lines = [r[0]], k;
    var where = t.parentNode.parentNode.getAttribute("data-path");
    if (where) { lines.push(where); }
    var m = r[1] || [];
    for (k = 0; k < m.length; k += 3) { lines.push(data.res[m[k]] + " " + m[k + 1] + " (" + m[k + 2] + "%)"); }
    if (r[4]) { lines.push("unschedulable (cordoned)"); }
    if (r[3] && r[3].length) { lines.push("taints: " + r[3].map(function (x) { return data.taints[x]; }).join(", ")); }
    var p = r[2] || [];
    for (k = 0; k < p.length; k += 2) { lines.push(data.ent[p[k]] + ": " + plural(p[k + 1], "pod")); }
    (r[5] || []).forEach(function (v) { lines.push("\u2715 victim: " + v); });
    (r[6] || []).forEach(function (c) { lines.push("\u0394 " + c); });
    return lines.join("\n");
  }

  tiles.forEach(function (t) {
    t.setAttribute("title", details(+t.id.slice(1), t));
    if (!t.hasAttribute("tabindex")) { t.setAttribute("tabindex", "-1"); }
  });

  function pressed(key, on) {
    document.querySelectorAll("[data-sel]").forEach(function (b) {
      b.setAttribute("aria-pressed", on && b.getAttribute("data-sel") === key ? "true" : "false");
    });
  }

  function clearSelection() {
    lit.forEach(function (t) { t.classList.remove("hl"); });
    lit = [];
    map.classList.remove("selecting");
    map.removeAttribute("data-selected");
    pressed(null, false);
    status.textContent = "Nothing selected.";
  }

  function select(key, remember) {
    clearSelection();
    var s = data.sel[key];
    if (!s) { status.textContent = "Nothing is called " + key + "."; return; }
    lit = s[2].map(tile).filter(Boolean);
    lit.forEach(function (t) { t.classList.add("hl"); });
    map.classList.add("selecting");
    map.setAttribute("data-selected", key);
    pressed(key, true);
    status.textContent = s[0] + " " + s[1] + ": " + lit.length + (lit.length === 1 ? " node" : " nodes") + " highlighted";
    if (remember && window.history && history.replaceState) {
      history.replaceState(null, "", "#select=" + encodeURIComponent(key));
    }
  }

  function forget() {
    if (window.history && history.replaceState) { history.replaceState(null, "", location.pathname + location.search); }
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest ? e.target.closest("[data-sel]") : null;
    if (!b) { return; }
    if (b.getAttribute("aria-pressed") === "true") { clearSelection(); forget(); } else { select(b.getAttribute("data-sel"), true); }
  });
  document.getElementById("clear").addEventListener("click", function () { clearSelection(); forget(); });

  function find(q) {
    found.forEach(function (t) { t.classList.remove("found"); });
    found = [];
    q = q.trim().toLowerCase();
    var items = document.querySelectorAll(".sel li");
    if (!q) {
      map.classList.remove("searching");
      items.forEach(function (li) { li.classList.remove("nomatch"); });
      if (!lit.length) { status.textContent = "Nothing selected."; }
      return;
    }
    data.nodes.forEach(function (row, i) {
      if (row[0].toLowerCase().indexOf(q) >= 0) { var t = tile(i); t.classList.add("found"); found.push(t); }
    });
    var shown = 0;
    items.forEach(function (li) {
      var hit = li.getAttribute("data-text").indexOf(q) >= 0;
      li.classList.toggle("nomatch", !hit);
      if (hit) { shown += 1; }
    });
    map.classList.toggle("searching", true);
    status.textContent = "\u201c" + q + "\u201d: " + found.length + (found.length === 1 ? " node, " : " nodes, ") +
      shown + (shown === 1 ? " selection" : " selections");
  }
  search.addEventListener("input", function () { find(search.value); });

  function show(t) { detail.textContent = t.getAttribute("title"); }
  map.addEventListener("focusin", function (e) { if (e.target.classList.contains("t")) { show(e.target); } });
  map.addEventListener("mouseover", function (e) { var t = e.target.closest(".t"); if (t) { show(t); } });

  function perRow(t) {
    var n = 0, row = t.parentNode.children;
    for (var i = 0; i < row.length && row[i].offsetTop === row[0].offsetTop; i++) { n += 1; }
    return Math.max(n, 1);
  }

  map.addEventListener("keydown", function (e) {
    var t = e.target;
    if (!t.classList || !t.classList.contains("t")) { return; }
    var i = tiles.indexOf(t), step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: perRow(t), ArrowUp: -perRow(t) }[e.key];
    var next = null;
    if (step) { next = tiles[Math.min(Math.max(i + step, 0), tiles.length - 1)]; }
    if (e.key === "Home") { next = tiles[0]; }
    if (e.key === "End") { next = tiles[tiles.length - 1]; }
    if (next) {
      e.preventDefault();
      t.setAttribute("tabindex", "-1");
      next.setAttribute("tabindex", "0");
      next.focus();
    }
  });

  document.addEventListener("keydown", function (e) {
    if (e.key === "/" && document.activeElement !== search) { e.preventDefault(); search.focus(); }
    if (e.key === "Escape") { search.value = ""; find(""); clearSelection(); forget(); }
  });

  function fromHash() {
    var h = location.hash, m = /^#select=(.+)$/.exec(h), q = /^#search=(.*)$/.exec(h);
    if (m) { select(decodeURIComponent(m[1]), false); }
    if (q) { search.value = decodeURIComponent(q[1]); find(search.value); }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
  document.documentElement.setAttribute("data-ready", "true");
  document.documentElement.setAttribute("data-ready-ms", String(Math.round(performance.now())));  // benchmarks/report_html.py
}());
