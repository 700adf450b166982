import { SEARCH_WIDGET_ID } from '../html/dom-policy.js';
import { OFFLINE_INDEX_GLOBAL } from './offline-index.js';
import { searchTerms } from './search-terms.js';

export const SEARCH_DIR = '_docport';
export const SEARCH_SCRIPT_FILE = `${SEARCH_DIR}/search.js`;
export const SEARCH_INDEX_FILE = `${SEARCH_DIR}/search-index.js`;

/** The box injected into every exported page; `root` leads from the page to the export root. */
export function searchWidgetMarkup(root: string): string {
  const attr = root.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<div id="${SEARCH_WIDGET_ID}" data-root="${attr}" role="search">` +
    `<input type="search" placeholder="Search this export" aria-label="Search this export" autocomplete="off">` +
    `<ol hidden></ol></div><script src="${attr}${SEARCH_SCRIPT_FILE}"></script>`;
}

/**
 * The widget, a classic script (module scripts do not load from file://). It loads the
 * index, itself a classic script, on first use: pages stay light, and it works from
 * file://, any static host and any sub-path, since every URL is relative to data-root.
 */
export function searchWidgetScript(): string {
  return `/* Docport offline search */
(function () {
  'use strict';
  var searchTerms = ${searchTerms.toString()};
  var box = document.getElementById(${JSON.stringify(SEARCH_WIDGET_ID)});
  if (!box) return;
  var root = box.getAttribute('data-root') || '';
  var input = box.querySelector('input');
  var list = box.querySelector('ol');
  var style = document.createElement('style');
  style.textContent = '#${SEARCH_WIDGET_ID}{position:fixed;right:12px;bottom:12px;z-index:2147483000;font:14px/1.4 system-ui,sans-serif;width:22em;max-width:calc(100vw - 24px)}' +
    '#${SEARCH_WIDGET_ID} input{width:100%;box-sizing:border-box;padding:6px 10px;border:1px solid #888;border-radius:6px;background:#fff;color:#111}' +
    '#${SEARCH_WIDGET_ID} ol{list-style:none;margin:0 0 6px;padding:4px;max-height:60vh;overflow:auto;background:#fff;color:#111;border:1px solid #888;border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.2)}' +
    '#${SEARCH_WIDGET_ID} li{padding:4px 6px}#${SEARCH_WIDGET_ID} a{color:#0645ad;text-decoration:none;font-weight:600}' +
    '#${SEARCH_WIDGET_ID} small{display:block;color:#555}#${SEARCH_WIDGET_ID}{display:flex;flex-direction:column-reverse}';
  (document.head || document.documentElement).appendChild(style);
  var requested = false;
  var waiting = null;
  function withIndex(callback) {
    if (window.${OFFLINE_INDEX_GLOBAL}) return callback(window.${OFFLINE_INDEX_GLOBAL});
    waiting = callback;
    if (requested) return;
    requested = true;
    var script = document.createElement('script');
    script.src = root + ${JSON.stringify(SEARCH_INDEX_FILE)};
    script.onload = function () { if (waiting && window.${OFFLINE_INDEX_GLOBAL}) waiting(window.${OFFLINE_INDEX_GLOBAL}); };
    script.onerror = function () { show([], 'The search index could not be loaded.'); };
    document.head.appendChild(script);
  }
  function search(index, query) {
    var terms = searchTerms(query);
    if (terms.length === 0) return [];
    var score = {}, hits = {};
    terms.forEach(function (term, i) {
      var found = {};
      (index.terms[term] || []).forEach(function (d) { found[d] = 3; });
      if (i === terms.length - 1 && term.length >= 2) {
        for (var key in index.terms) {
          if (key !== term && key.lastIndexOf(term, 0) === 0) index.terms[key].forEach(function (d) { found[d] = found[d] || 1; });
        }
      }
      for (var d in found) {
        var doc = index.docs[d];
        var head = (doc[2] + ' ' + doc[3]).toLowerCase();
        score[d] = (score[d] || 0) + found[d] + (head.indexOf(term) >= 0 ? 4 : 0);
        hits[d] = (hits[d] || 0) + 1;
      }
    });
    var ids = Object.keys(score);
    var all = ids.filter(function (d) { return hits[d] === terms.length; });
    return (all.length > 0 ? all : ids).sort(function (a, b) { return score[b] - score[a] || a - b; }).slice(0, 20).map(function (d) { return index.docs[d]; });
  }
  function href(doc) {
    var path = doc[0].split('/').map(encodeURIComponent).join('/');
    return root + path + (doc[1] ? '#' + encodeURIComponent(doc[1]) : '');
  }
  function show(docs, message) {
    list.textContent = '';
    if (message || docs.length === 0) {
      var li = document.createElement('li');
      li.textContent = message || 'No results';
      list.appendChild(li);
    }
    docs.forEach(function (doc) {
      var li = document.createElement('li');
      var a = document.createElement('a');
      a.href = href(doc);
      a.textContent = doc[3] || doc[2];
      var small = document.createElement('small');
      small.textContent = (doc[3] && doc[3] !== doc[2] ? doc[2] + ': ' : '') + doc[4];
      li.appendChild(a);
      li.appendChild(small);
      list.appendChild(li);
    });
    list.hidden = false;
  }
  input.addEventListener('input', function () {
    if (!input.value.trim()) { list.hidden = true; return; }
    withIndex(function (index) { show(search(index, input.value)); });
  });
  input.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') { input.value = ''; list.hidden = true; }
  });
})();
`;
}
