// The session's state on screen, diffed: header and progress once a frame; the actions and the
// refresh/stop button at once.
import CWebKitGtk
import GLibBridge
import PortholeCore

@MainActor
extension BrowserWindow {
    /// Renders at the next frame GTK draws: a load tells its progress, title, address, history
    /// and loading state in separate messages, and each change to the header or the bar costs a
    /// layout and a paint of the window. Made once per frame (what can be seen), a fast navigation
    /// costs one of each instead of one per message (issue 14: a third less CPU in the UI process
    /// over a 1,000-link chain). Before the window is shown, at once.
    func scheduleRender() {
        guard pendingRender == nil else { return }
        guard let window, gtk_widget_get_mapped(window) != 0 else { return render() }
        pendingRender = FrameTick(window) { [weak self] in
            self?.pendingRender = nil
            self?.render()
        }
    }

    func render() {
        guard window != nil else { return }
        let title = state.headerTitle
        if title != appliedTitle {
            appliedTitle = title
            titleLines.setTitle(title)
        }
        let subtitle = state.headerSubtitle
        if appliedSubtitle == nil || subtitle != appliedSubtitle! {
            appliedSubtitle = .some(subtitle)
            titleLines.setSubtitle(subtitle)
        }
        let progress = state.visibleProgress
        if appliedProgress == nil || progress != appliedProgress! {
            appliedProgress = .some(progress)
            gtk_progress_bar_set_fraction(progressBar.cast(), progress ?? 0)
            gtk_stack_set_visible_child_name(progressSlot.cast(), state.showsProgress ? Self.progressPage : Self.restPage)
        }
        updateActions()
    }

    /// What the keyboard and the buttons can do follows the state at once (only drawing waits
    /// for the frame), and so does the refresh button's Stop/Reload: it takes the action that is
    /// enabled before the other is disabled, so it never shows insensitive between the two (an
    /// insensitive flash, and a restyle and repaint, at both ends of every load).
    func updateActions() {
        actions["back"]?.isEnabled = session.canGoBack
        actions["forward"]?.isEnabled = session.canGoForward
        let loading = session.canStop
        if loading { actions["stop"]?.isEnabled = true }
        if loading != appliedLoading {
            appliedLoading = loading
            gtk_stack_set_visible_child_name(refreshIcons.cast(), loading ? Self.stopIcon : Self.reloadIcon)
            gtk_actionable_set_action_name(OpaquePointer(refreshButton), loading ? "win.stop" : "win.reload")
            gtk_widget_set_tooltip_text(refreshButton, loading ? tr("Stop (Escape)") : tr("Reload (F5)"))
            Accessibility.setName(refreshButton, loading ? tr("Stop") : tr("Reload"))
        }
        if !loading { actions["stop"]?.isEnabled = false }
    }
}
