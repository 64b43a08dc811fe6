// A WebKitPermissionRequest, named as Core names permissions, so Core can decide it.
import CWebKitGtk
import PortholeCore

extension PermissionRequest {
    /// Reads the request's GType (and, for user media, which devices it wants).
    init(webKitRequest request: UnsafeMutableRawPointer) {
        func isA(_ type: GType) -> Bool {
            g_type_check_instance_is_a(request.assumingMemoryBound(to: GTypeInstance.self), type) != 0
        }
        if isA(webkit_geolocation_permission_request_get_type()) {
            self = .permissions([.geolocation])
        } else if isA(webkit_notification_permission_request_get_type()) {
            self = .permissions([.notifications])
        } else if isA(webkit_user_media_permission_request_get_type()) {
            let media = request.assumingMemoryBound(to: WebKitUserMediaPermissionRequest.self)
            if webkit_user_media_permission_is_for_display_device(media) != 0 {
                self = .other("display-capture")
                return
            }
            var wanted: Set<Permission> = []
            if webkit_user_media_permission_is_for_video_device(media) != 0 { wanted.insert(.camera) }
            if webkit_user_media_permission_is_for_audio_device(media) != 0 { wanted.insert(.microphone) }
            self = .permissions(wanted)
        } else if isA(webkit_pointer_lock_permission_request_get_type()) {
            self = .permissions([.pointerLock])
        } else if isA(webkit_clipboard_permission_request_get_type()) {
            self = .permissions([.clipboard])
        } else if isA(webkit_media_key_system_permission_request_get_type()) {
            self = .permissions([.mediaKeys])
        } else if isA(webkit_device_info_permission_request_get_type()) {
            self = .deviceInfo
        } else {
            let instance = request.assumingMemoryBound(to: GTypeInstance.self)
            self = .other(String(cString: g_type_name(instance.pointee.g_class.pointee.g_type)))
        }
    }
}
