// The script API (docs/scripts.md), built inside each fresh QuickJS context from plain JSON.
// It runs before the user's scripts and keeps its own references to JSON, so a script that
// replaces JSON.stringify or Array.prototype methods only spoils its own result, which the
// host checks again anyway.

/** Defines the API as globals and `__photorelayResult()`; called with the input and catalog JSON. */
export const prelude = String.raw`
(function (inputJson, catalogJson) {
  'use strict';
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  var input = parse(inputJson);
  var cat = parse(catalogJson);
  var maxText = 1024, maxItems = 256, maxLog = 200, maxLogText = 2000;
  var values = input.meta;
  var metaChanged = false;
  var fileName = input.file.name;
  var skipped = [];
  var rejected = null;
  var logs = [];
  var lowerIds = {};
  Object.keys(cat.kinds).forEach(function (id) { lowerIds[id.toLowerCase()] = id; });

  function fail(message) { throw new Error(message); }
  function has(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }
  function resolve(name) {
    if (typeof name !== 'string' || name.trim() === '') fail('meta: a property name is needed');
    var parts = name.split(',').map(function (s) { return s.trim(); });
    var lower = parts[0].toLowerCase();
    var id = has(cat.aliases, lower) ? cat.aliases[lower] : has(lowerIds, lower) ? lowerIds[lower] : undefined;
    if (!id) fail('meta: unknown property "' + parts[0] + '"');
    var kind = cat.kinds[id];
    var field = parts.length > 1;
    if (!field && (kind === 'structure' || kind === 'structs'))
      fail('meta: ' + id + ' has fields: name one, e.g. "' + id + ',city"');
    return { id: id, kind: field ? 'field' : kind, path: [id].concat(parts.slice(1)).join(','), inArray: kind === 'structs' };
  }
  function text(v) {
    var s = v === undefined || v === null ? '' : String(v);
    if (s.length > maxText) fail('meta: a value is longer than ' + maxText + ' characters');
    return s;
  }
  function mine(r) { return function (e) { return e.p === r.path && (r.kind !== 'field' || !r.inArray || (e.pos || 0) === 0); }; }
  function isDefault(e) { return !e.lang || e.lang === 'x-default'; }
  function list(r) {
    return values.filter(mine(r)).sort(function (a, b) { return (a.pos || 0) - (b.pos || 0); });
  }
  function replaceAll(r, entries) {
    var keep = mine(r);
    values = values.filter(function (e) { return !keep(e); }).concat(entries);
    metaChanged = true;
  }
  function needArray(r, what) {
    if (r.kind !== 'bag' && r.kind !== 'seq') fail('meta.' + what + ': ' + r.id + ' is not a list');
  }
  function setItems(r, items) {
    if (items.length > maxItems) fail('meta: more than ' + maxItems + ' items');
    replaceAll(r, items.map(function (v, i) { return { p: r.path, v: text(v), pos: i }; }));
  }
  function getText(r) {
    var found = list(r);
    if (r.kind === 'alt') found = found.filter(isDefault).concat(found);
    return found.length > 0 ? found[0].v : '';
  }
  function setText(r, value) {
    var v = text(value);
    if (r.kind === 'alt') {
      var others = list(r).filter(function (e) { return !isDefault(e); });
      replaceAll(r, [{ p: r.path, v: v, lang: 'x-default' }].concat(others));
    } else if (r.kind === 'field') {
      var old = list(r)[0];
      var entry = { p: r.path, v: v };
      if (r.inArray) entry.pos = 0;
      if (old && old.lang) entry.lang = old.lang;
      replaceAll(r, [entry]);
    } else replaceAll(r, [{ p: r.path, v: v }]);
  }
  function joinAfter(existing, addition) {
    var base = existing.replace(/\s+$/, '');
    if (base === '') return addition;
    if (addition === '') return existing;
    return /^[\s,;:.\-/|)!?]/.test(addition) ? base + addition : base + ' ' + addition;
  }
  function joinBefore(addition, existing) {
    var base = existing.replace(/^\s+/, '');
    if (base === '') return addition;
    if (addition === '') return existing;
    return /\s$/.test(addition) ? addition + base : addition + ' ' + base;
  }
  function items(r) { return list(r).map(function (e) { return e.v; }); }

  var meta = Object.freeze({
    get: function (name) {
      var r = resolve(name);
      return r.kind === 'bag' || r.kind === 'seq' ? items(r) : getText(r);
    },
    set: function (name, value) {
      var r = resolve(name);
      if (r.kind === 'bag' || r.kind === 'seq') setItems(r, Array.isArray(value) ? value : [value]);
      else setText(r, value);
    },
    append: function (name, value) {
      var r = resolve(name);
      if (r.kind === 'bag' || r.kind === 'seq') setItems(r, items(r).concat([value]));
      else setText(r, joinAfter(getText(r), text(value)));
    },
    prepend: function (name, value) {
      var r = resolve(name);
      if (r.kind === 'bag' || r.kind === 'seq') setItems(r, [value].concat(items(r)));
      else setText(r, joinBefore(text(value), getText(r)));
    },
    add: function (name, item) {
      var r = resolve(name);
      needArray(r, 'add');
      var now = items(r);
      var v = text(item);
      if (r.kind === 'seq' || now.indexOf(v) < 0) setItems(r, now.concat([v]));
    },
    remove: function (name, item) {
      var r = resolve(name);
      if (arguments.length < 2) return replaceAll(r, []);
      needArray(r, 'remove');
      var v = text(item);
      setItems(r, items(r).filter(function (x) { return x !== v; }));
    },
    lang: function (name, lang, value) {
      var r = resolve(name);
      if (r.kind !== 'alt') fail('meta.lang: ' + r.id + ' is not a language alternative');
      var l = String(lang || 'x-default');
      var found = list(r).filter(function (e) { return (e.lang || 'x-default') === l; })[0];
      if (arguments.length < 3) return found ? found.v : '';
      var others = list(r).filter(function (e) { return (e.lang || 'x-default') !== l; });
      var mineNow = { p: r.path, v: text(value), lang: l };
      replaceAll(r, l === 'x-default' ? [mineNow].concat(others) : others.concat([mineNow]));
    },
  });
  var exif = Object.freeze({
    get: function (tag) {
      var t = String(tag);
      return has(input.exif, t) ? input.exif[t] : undefined;
    },
  });
  var file = {};
  Object.defineProperties(file, {
    name: {
      get: function () { return fileName; },
      set: function (v) {
        var s = String(v);
        if (s === '' || s.length > 255 || /[\/\\\u0000-\u001f]/.test(s) || s === '.' || s === '..')
          fail('file.name: "' + s.slice(0, 100) + '" is not a valid file name');
        fileName = s;
      },
      enumerable: true,
    },
    folder: { value: input.file.folder, enumerable: true },
    size: { value: input.file.size, enumerable: true },
    type: { value: input.file.type, enumerable: true },
  });
  Object.seal(file);
  var destinations = Object.freeze(input.destinations.slice());
  function define(name, value) {
    Object.defineProperty(globalThis, name, { value: value, writable: false, configurable: false, enumerable: true });
  }
  define('meta', meta);
  define('exif', exif);
  define('file', file);
  define('project', Object.freeze({ name: input.project.name }));
  define('destinations', destinations);
  define('skip', function (name) {
    var n = String(name);
    if (destinations.indexOf(n) < 0) {
      if (logs.length < maxLog) logs.push('skip: no destination named "' + n.slice(0, 100) + '"');
      return;
    }
    if (skipped.indexOf(n) < 0) skipped.push(n);
  });
  define('reject', function (reason) {
    rejected = String(reason === undefined ? 'rejected by script' : reason).slice(0, 1000);
    throw { __photorelayReject: true };
  });
  define('log', function () {
    var line = Array.prototype.map.call(arguments, function (a) {
      if (typeof a === 'string') return a;
      try { return stringify(a); } catch (e) { return String(a); }
    }).join(' ');
    if (logs.length < maxLog) logs.push(String(line).slice(0, maxLogText));
  });
  define('__photorelayResult', function () {
    return stringify({ file: { name: fileName }, meta: values, metaChanged: metaChanged, skipped: skipped, rejected: rejected, log: logs });
  });
  define('__photorelayRejected', function () { return rejected !== null; });
})
`;
