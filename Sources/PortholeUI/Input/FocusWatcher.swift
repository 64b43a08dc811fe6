// Tells the on-screen keyboard which field of the page has focus: a user script in every frame,
// in its own script world, posting to a script message handler.
import CWebKitGtk
import GLibBridge
import PortholeCore

/// Watches one web view: its user content manager gets the focus script and the message
/// handler; `detach()` removes both and disconnects before letting go of the manager.
///
/// The script runs in an isolated world, so a page's own scripts cannot replace the listeners
/// it relies on. It runs in every frame: a field in an iframe reports its focus too. A page can
/// still post to the handler (the channel is visible to the world's scripts only, but a page
/// could focus fields itself), which at worst shows or hides the keyboard.
@MainActor
final class FocusWatcher {
    static let handlerName = "portholeKeyboard"
    static let worldName = "porthole-keyboard"

    private let channel: ScriptMessageChannel

    /// `report` gets the focused field, or nil when focus left the editable one.
    init(view: UnsafeMutablePointer<WebKitWebView>, report: @escaping @MainActor (FieldFocus?) -> Void) {
        channel = ScriptMessageChannel(view: view, name: Self.handlerName, world: Self.worldName, source: Self.source) { message in
            report(FieldFocus(message: message))
        }
        if !channel.registered { Log.warning("the keyboard's focus handler is already registered on this web view") }
    }

    var webView: UnsafeMutablePointer<WebKitWebView>? { channel.webView }

    func detach() { channel.detach() }

    /// Reports focus moving into and out of editable fields (`focus;TAG;TYPE;INPUTMODE;EDITABLE`
    /// or `blur`, see FieldFocus). Focus leaving a field is judged a moment later, once the
    /// next element has it, so moving between fields does not hide and show the keyboard; focus
    /// moving into an iframe is left to the iframe's own copy of the script. A tap on the field
    /// that already has focus reports it again (it brings back a keyboard the visitor hid).
    /// When the view shrinks for the keyboard, the main frame scrolls its focused field into view,
    /// or the frame holding the focused field (a frame's own viewport does not change).
    static let source = """
        (function () {
          var handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.\(handlerName);
          if (!handler) return;
          function clean(text) { return String(text || '').toLowerCase().replace(/[^a-z-]/g, ''); }
          function describe(element) {
            if (!element || !element.localName) return null;
            var tag = clean(element.localName);
            var mode = clean(element.getAttribute && element.getAttribute('inputmode'));
            if (tag === 'input' || tag === 'textarea') {
              var editable = element.readOnly || element.disabled ? '0' : '1';
              return ['focus', tag, tag === 'input' ? clean(element.type) : '', mode, editable].join(';');
            }
            if (element.isContentEditable) return ['focus', tag, '', mode, '1'].join(';');
            return null;
          }
          // Looked up at each post: a page loaded before the watcher was made again for its view
          // (a kiosk's next visitor's, prepared ahead) reaches the handler registered now.
          function post(message) { try { (window.webkit.messageHandlers.\(handlerName) || handler).postMessage(message); } catch (e) {} }
          document.addEventListener('focusin', function (event) {
            var message = describe(event.target);
            if (message) post(message);
          }, true);
          document.addEventListener('focusout', function () {
            setTimeout(function () {
              var active = document.activeElement;
              if (active && (active.localName === 'iframe' || active.localName === 'frame')) return;
              if (!describe(active)) post('blur');
            }, 0);
          }, true);
          document.addEventListener('pointerdown', function () {
            setTimeout(function () {
              var message = describe(document.activeElement);
              if (message) post(message);
            }, 0);
          }, true);
          if (window.top === window) {
            window.addEventListener('resize', function () {
              var active = document.activeElement;
              var framed = active && (active.localName === 'iframe' || active.localName === 'frame');
              if ((framed || describe(active)) && active.scrollIntoView) active.scrollIntoView({ block: 'nearest' });
            });
          }
        })();
        """
}
