// The speech watcher's scripts, run in its own script world: the one in every frame that
// describes what got focus or a touch (and speaks live regions), and the read-the-page script.

extension SpeechWatcher {
    /// The main text from the focused element on: the text of the page's `main` (or body) from
    /// the focus when it is inside, a space between blocks, at most 20,000 characters; the
    /// page's `lang` on the first line.
    static let readScript = """
        (function () {
          var root = document.querySelector('main, [role=main]') || document.body;
          if (!root) return '';
          var focus = document.activeElement;
          var start = focus && focus !== document.body && root.contains(focus) ? focus : null;
          function block(node) {
            for (var e = node.parentElement; e && e !== root; e = e.parentElement) {
              var display = getComputedStyle(e).display;
              if (display !== 'inline' && display !== 'contents') return e;
            }
            return root;
          }
          var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT), node, last = null, text = '';
          while ((node = walker.nextNode()) && text.length < 20000) {
            if (start && !start.contains(node) && !(start.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
            var parent = node.parentElement;
            if (!parent || /^(script|style|noscript|template)$/.test(parent.localName) || !parent.getClientRects().length) continue;
            var here = block(node);
            text += (here !== last ? ' ' : '') + node.data;
            last = here;
          }
          return (document.documentElement.lang || '') + '\\n' + text.replace(/\\s+/g, ' ').trim().slice(0, 20000);
        })();
        """

    /// Describes an element as a screen reader would (a simplified accessible name and role
    /// computation after WAI-ARIA 1.2 and HTML-AAM): role from `role=` or the tag, name from
    /// aria-labelledby, aria-label, the label, alt, the content, title, placeholder; states from
    /// ARIA and the form control. A password's value is sent as dots, never its characters.
    /// A tap describes the nearest element with a role, else the text block touched.
    static let source = """
        (function () {
          var handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.\(handlerName);
          if (!handler) return;
          // The handler is looked up at each message, as the keyboard's watcher does: a page
          // prepared ahead for the next visitor gets it after this script has run.
          function send(text) { try { (window.webkit.messageHandlers.\(handlerName) || handler).postMessage(text); } catch (error) {} }
          function clean(text) { return String(text || '').replace(/\\s+/g, ' ').trim(); }
          function attr(e, name) { return e.getAttribute ? e.getAttribute(name) : null; }
          function content(node, depth) {
            if (depth > 8) return '';
            if (node.nodeType === 3) return node.data;
            if (node.nodeType !== 1 || attr(node, 'aria-hidden') === 'true') return '';
            var tag = node.localName;
            if (tag === 'script' || tag === 'style' || tag === 'template') return '';
            if (tag === 'img') return ' ' + (attr(node, 'alt') || '') + ' ';
            var label = attr(node, 'aria-label');
            if (label && depth > 0) return ' ' + label + ' ';
            var parts = [];
            for (var child = node.firstChild; child; child = child.nextSibling) parts.push(content(child, depth + 1));
            return ' ' + parts.join('') + ' ';
          }
          var implicit = { a: 'link', area: 'link', button: 'button', summary: 'button', textarea: 'textbox', img: 'img',
                           option: 'option', li: 'listitem', dialog: 'dialog', h1: 'heading', h2: 'heading', h3: 'heading',
                           h4: 'heading', h5: 'heading', h6: 'heading' };
          function role(e) {
            var explicit = clean(attr(e, 'role')).split(' ')[0].toLowerCase();
            if (explicit) return explicit;
            var tag = e.localName;
            if ((tag === 'a' || tag === 'area') && !e.hasAttribute('href')) return 'generic';
            if (tag === 'input') {
              var type = (e.type || 'text').toLowerCase();
              if (type === 'checkbox' || type === 'radio') return type;
              if (['button', 'submit', 'reset', 'image'].indexOf(type) >= 0) return 'button';
              if (type === 'range') return 'slider';
              if (type === 'number') return 'spinbutton';
              if (type === 'search') return 'searchbox';
              if (type === 'hidden') return 'generic';
              return 'textbox';
            }
            if (tag === 'select') return e.multiple || e.size > 1 ? 'listbox' : 'combobox';
            if (implicit[tag]) return implicit[tag];
            return e.isContentEditable ? 'textbox' : 'generic';
          }
          var fields = ['textbox', 'searchbox', 'combobox', 'listbox', 'slider', 'spinbutton', 'checkbox', 'radio', 'switch'];
          function name(e, r) {
            var ids = attr(e, 'aria-labelledby');
            if (ids) {
              var named = clean(ids.split(/\\s+/).map(function (id) {
                var target = document.getElementById(id);
                return target ? content(target, 0) : '';
              }).join(' '));
              if (named) return named;
            }
            var label = clean(attr(e, 'aria-label'));
            if (label) return label;
            if (e.labels && e.labels.length) {
              var labels = clean(Array.prototype.map.call(e.labels, function (l) { return content(l, 0); }).join(' '));
              if (labels) return labels;
            }
            if (e.localName === 'img' || e.localName === 'area' || (e.localName === 'input' && e.type === 'image')) {
              var alt = clean(attr(e, 'alt'));
              if (alt) return alt;
            }
            if (e.localName === 'input' && ['submit', 'reset', 'button'].indexOf(e.type) >= 0) {
              return clean(e.value) || (e.type === 'submit' ? 'Submit' : e.type === 'reset' ? 'Reset' : '');
            }
            if (fields.indexOf(r) < 0 && e.localName !== 'input') {
              var text = clean(content(e, 0));
              if (text) return text;
            }
            return clean(attr(e, 'title')) || clean(attr(e, 'placeholder'));
          }
          function states(e, r) {
            var list = [];
            var checked = attr(e, 'aria-checked');
            if (r === 'checkbox' || r === 'radio' || r === 'switch') {
              if (checked === 'mixed' || e.indeterminate) list.push('mixed');
              else list.push((checked === 'true' || e.checked) ? 'checked' : 'not-checked');
            }
            var expanded = attr(e, 'aria-expanded');
            if (expanded === 'true') list.push('expanded'); else if (expanded === 'false') list.push('collapsed');
            var pressed = attr(e, 'aria-pressed');
            if (pressed === 'true') list.push('pressed'); else if (pressed === 'false') list.push('not-pressed');
            if (attr(e, 'aria-selected') === 'true') list.push('selected');
            if (e.disabled || attr(e, 'aria-disabled') === 'true') list.push('disabled');
            if (e.required || attr(e, 'aria-required') === 'true') list.push('required');
            if (attr(e, 'aria-invalid') === 'true') list.push('invalid');
            if (e.readOnly && (e.localName === 'input' || e.localName === 'textarea')) list.push('read-only');
            if (e.localName === 'input' && e.type === 'password') list.push('password');
            return list;
          }
          function value(e, r) {
            if (e.localName === 'input' && e.type === 'password') return new Array(e.value.length + 1).join('*');
            if (e.localName === 'select') {
              var option = e.options && e.options[e.selectedIndex];
              return option ? clean(option.text) : '';
            }
            if (r === 'slider' || r === 'spinbutton') return clean(attr(e, 'aria-valuetext')) || clean(e.value || attr(e, 'aria-valuenow'));
            if (r === 'textbox' || r === 'searchbox') {
              if (e.localName === 'input' || e.localName === 'textarea') return String(e.value || '');
              return clean(e.textContent);
            }
            return null;
          }
          function describe(e) {
            var r = role(e);
            var message = { role: r, name: name(e, r), states: states(e, r) };
            var v = value(e, r);
            if (v !== null) message.value = v;
            if (r === 'heading') message.level = parseInt(attr(e, 'aria-level') || e.localName.slice(1), 10) || 2;
            var withLang = e.closest ? e.closest('[lang]') : null;
            var lang = withLang ? withLang.getAttribute('lang') : '';
            if (lang) message.lang = lang;
            return JSON.stringify(message);
          }
          // What was described last (by focus or touch) and when, for the double tap.
          var last = null, lastAt = 0;
          function post(e) {
            if (!e || !e.localName || e.localName === 'iframe' || e.localName === 'frame') return;
            last = e;
            lastAt = performance.timeOrigin + performance.now();
            send(describe(e));
          }
          function meaningful(target) {
            for (var e = target, hops = 0; e && e.nodeType === 1 && hops < 6; e = e.parentElement, hops++) {
              if (role(e) !== 'generic') return e;
            }
            return target;
          }
          // A tap on a link or field also focuses it: said once, for the tap.
          var touched = null;
          document.addEventListener('focusin', function (event) {
            if (event.target === touched) { touched = null; return; }
            post(event.target);
          }, true);
          document.addEventListener('pointerdown', function (event) {
            var target = meaningful(event.target);
            touched = target;
            post(target);
          }, true);
          // While speech is on, the window keeps touches from the page and asks these instead.
          function frames(win, list) {
            list.push(win);
            for (var i = 0; i < win.frames.length; i++) {
              try { var api = win.frames[i].\(apiName); if (api) frames(win.frames[i], list); } catch (error) {}
            }
            return list;
          }
          window.\(apiName) = {
            at: function (x, y, explore) {
              var doc = document, e = doc.elementFromPoint(x, y), api = window.\(apiName);
              while (e && (e.localName === 'iframe' || e.localName === 'frame')) {
                var win = null;
                try { win = e.contentWindow; api = win && win.\(apiName); } catch (error) { api = null; }
                if (!api) break;
                var box = e.getBoundingClientRect();
                x -= box.left + e.clientLeft;
                y -= box.top + e.clientTop;
                return api.at(x, y, explore);
              }
              if (!e) return false;
              var target = meaningful(e);
              if (explore && target === last) return false;
              post(target);
              return true;
            },
            lastAt: function () { return last && last.isConnected ? lastAt : 0; },
            activateHere: function () {
              if (!last || !last.isConnected) return false;
              touched = last;
              if (last.focus) last.focus();
              if (document.activeElement !== last) touched = null;
              if (last.click) last.click();
              return true;
            },
            activate: function () {
              var best = null, bestAt = 0;
              frames(window, []).forEach(function (win) {
                var at = win.\(apiName).lastAt();
                if (at > bestAt) { best = win.\(apiName); bestAt = at; }
              });
              return best ? best.activateHere() : false;
            }
          };
          // Live regions: aria-live, and the roles that are live by default (status and log
          // polite, alert assertive). Their changes are gathered until the page's script is done
          // changing them, then said once each; a log says what was added, the others all of it.
          function live(node) {
            for (var e = node && node.nodeType === 1 ? node : node && node.parentElement; e; e = e.parentElement) {
              var politeness = attr(e, 'aria-live');
              if (politeness === 'off') return null;
              if (politeness === 'polite' || politeness === 'assertive') return { root: e, politeness: politeness };
              var r = clean(attr(e, 'role')).split(' ')[0].toLowerCase();
              if (r === 'status' || r === 'log') return { root: e, politeness: 'polite' };
              if (r === 'alert') return { root: e, politeness: 'assertive' };
            }
            return null;
          }
          var changed = [], flushing = false;
          function note(node, added) {
            var region = live(node);
            if (!region) return;
            var entry = null;
            for (var i = 0; i < changed.length; i++) if (changed[i].root === region.root) entry = changed[i];
            if (!entry) { entry = { root: region.root, politeness: region.politeness, added: [] }; changed.push(entry); }
            if (added) entry.added.push(added);
            if (!flushing) { flushing = true; setTimeout(flush, 0); }
          }
          function flush() {
            flushing = false;
            var list = changed;
            changed = [];
            list.forEach(function (entry) {
              var root = entry.root;
              if (!root.isConnected || attr(root, 'aria-hidden') === 'true') return;
              var isLog = clean(attr(root, 'role')).split(' ')[0].toLowerCase() === 'log' && attr(root, 'aria-atomic') !== 'true';
              var text = clean(isLog && entry.added.length ? entry.added.map(function (n) { return content(n, 1); }).join(' ') : content(root, 0));
              if (!text) return;
              var withLang = root.closest('[lang]');
              var message = { live: entry.politeness, text: text };
              if (withLang) message.lang = withLang.getAttribute('lang');
              send(JSON.stringify(message));
            });
          }
          new MutationObserver(function (records) {
            // The page being parsed is not a change: its regions' first content is not said.
            if (document.readyState === 'loading') return;
            records.forEach(function (record) {
              if (record.type === 'characterData') { note(record.target, null); return; }
              for (var i = 0; i < record.addedNodes.length; i++) {
                var added = record.addedNodes[i];
                // An alert put into the page is said, though nothing inside it changed.
                note(added.nodeType === 1 && live(added) && live(added).root === added ? added : record.target, added);
              }
            });
          }).observe(document, { childList: true, subtree: true, characterData: true });
        })();
        """
}
