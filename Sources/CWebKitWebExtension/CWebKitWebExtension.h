/* The web process seam for PortholeWebExtension: WebKitGTK's web process extension API, which
   cannot be included together with <webkit2/webkit2.h> (the UI process API). */
#include <webkit2/webkit-web-extension.h>
