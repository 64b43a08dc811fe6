// Tells the read-aloud mode what got focus or a touch in the page: a user script in every
// frame, in its own script world, describing the element from its accessibility semantics.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Watches one web view, as the keyboard's FocusWatcher does: its user content manager gets the
/// speech script and the message handler; `detach()` removes them (the script only, not the
/// keyboard's: each is removed by its own world's handler and `remove_script`).
///
/// The script runs in an isolated world, so a page's own scripts cannot see or replace its
/// listeners, and in every frame, so a field in an iframe is described by the iframe's copy.
/// It reports whether speech is on or not: deciding is the session's; a report costs one message.
@MainActor
final class SpeechWatcher {
    static let handlerName = "portholeSpeech"
    /// The speech world's own global the script puts its touch functions on (the page's
    /// scripts live in another world and cannot see it).
    static let apiName = "portholeSpeech"
    static let worldName = "porthole-speech"

    private let view: ObjectOwner
    private let manager: ObjectOwner
    private let registered: Bool
    private let script: OpaquePointer?

    /// `report` gets each description and live region change (`SpeechEvent(scriptMessage:)`).
    init(view: UnsafeMutablePointer<WebKitWebView>, report: @escaping @MainActor (SpeechEvent) -> Void) {
        self.view = ObjectOwner(retaining: UnsafeMutableRawPointer(view))
        let manager = webkit_web_view_get_user_content_manager(view)!
        self.manager = ObjectOwner(retaining: UnsafeMutableRawPointer(manager))
        registered = ScriptMessageChannel.open(self.manager, name: Self.handlerName, world: Self.worldName) { message in
            if let event = SpeechEvent(scriptMessage: message) { report(event) }
        }
        if !registered { Log.warning("the speech handler is already registered on this web view") }
        let script = webkit_user_script_new_for_world(Self.source, WEBKIT_USER_CONTENT_INJECT_ALL_FRAMES,
                                                      WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, Self.worldName, nil, nil)
        webkit_user_content_manager_add_script(manager, script)
        self.script = script
    }

    var webView: UnsafeMutablePointer<WebKitWebView>? { view.typed() }

    func detach() {
        guard let manager = manager.typed(WebKitUserContentManager.self) else { return }
        if let script {
            webkit_user_content_manager_remove_script(manager, script)
            webkit_user_script_unref(script)
        }
        if registered {
            webkit_user_content_manager_unregister_script_message_handler_in_world(manager, Self.handlerName, Self.worldName)
        }
        self.manager.release()
        view.release()
    }

    /// Runs `readScript` in the main frame's speech world and hands its text and the page's
    /// language to `done`.
    func readFromFocus(_ done: @escaping @MainActor (String, String?) -> Void) {
        evaluate(Self.readScript, done)
    }

    /// Has the script describe the element at `point` (the web view's widget pixels; the page's
    /// zoom taken out): a same-origin frame's element too. `explore`: only if it is not the
    /// element described last. The description comes back as a message, as a focused one does.
    func describe(at point: TouchPoint, explore: Bool) {
        guard let view = webView else { return }
        let zoom = max(0.1, webkit_web_view_get_zoom_level(view))
        evaluate("window.\(Self.apiName) && window.\(Self.apiName).at(\(point.x / zoom), \(point.y / zoom), \(explore))") { _, _ in }
    }

    /// Activates the element described last, in whichever same-origin frame it is: focuses it
    /// and clicks it (a link opens, a button presses, a field gets the on-screen keyboard).
    func activate() {
        evaluate("window.\(Self.apiName) && window.\(Self.apiName).activate()") { _, _ in }
    }

    /// The page's title and language, from the page itself: at load-finished WebKit's `title`
    /// may not have arrived from the web process yet.
    func titleAndLanguage(_ done: @escaping @MainActor (String, String?) -> Void) {
        evaluate("(document.documentElement.lang || '') + '\\n' + document.title", done)
    }

    private func evaluate(_ script: String, _ done: @escaping @MainActor (String, String?) -> Void) {
        guard let view = webView else { return }
        let box = Unmanaged.passRetained(ReadBox(done)).toOpaque()
        webkit_web_view_evaluate_javascript(view, script, -1, Self.worldName, nil, nil, textRead, box)
    }

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

/// `void (*GAsyncReadyCallback)(GObject *source, GAsyncResult *result, gpointer data)`.
private let textRead: GAsyncReadyCallback = { source, result, data in
    guard let incoming = data else { return }
    nonisolated(unsafe) let data = incoming  // the box, released on the main thread below
    nonisolated(unsafe) let view = source.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebView.self) }
    nonisolated(unsafe) let result = result  // delivered on the main thread, used there
    MainActor.assumeIsolated {
        let box = Unmanaged<ReadBox>.fromOpaque(data).takeRetainedValue()
        var error: UnsafeMutablePointer<GError>?
        var text = ""
        if let view, let value = webkit_web_view_evaluate_javascript_finish(view, result, &error) {
            if jsc_value_is_string(value) != 0, let string = jsc_value_to_string(value) {
                text = String(cString: string)
                g_free(string)
            }
            g_object_unref(UnsafeMutableRawPointer(value))
        }
        _ = GLibError.take(error)
        // The script answers "LANG\nTEXT".
        let newline = text.firstIndex(of: "\n")
        let language = newline.map { String(text[..<$0]) }.flatMap { $0.isEmpty ? nil : $0 }
        box.done(newline.map { String(text[text.index(after: $0)...]) } ?? text, language)
    }
}

private final class ReadBox {
    let done: @MainActor (String, String?) -> Void
    init(_ done: @escaping @MainActor (String, String?) -> Void) { self.done = done }
}
