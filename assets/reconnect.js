// A page whose connection to the lab server is lost says so and reloads itself from its
// link once the server answers again (labs/server/reconnect.py). The one copy of that code:
// every page loads this file in its head, and every session's document runs it again on
// Bokeh's "connection_lost" event (a page that embeds a lab may not have loaded it), so
// whichever comes first defines window.labConnectionLost, once.
(() => {
  if (!window.labConnectionLost) {
    // The words of labs/server/reconnect.py's MESSAGE (a test holds them equal).
    const message = "The connection to the lab server was lost. This page reloads itself from its link as soon as the server answers again.";
    const retryMs = 2000;
    window.labConnectionLost = () => {
      if (window.labReconnecting) { return; }
      window.labReconnecting = true;
      const show = () => {
        const banner = document.createElement("div");
        banner.className = "lab-connection-lost";
        banner.setAttribute("role", "alert");
        banner.textContent = message;
        Object.assign(banner.style, {
          position: "fixed", top: "0", left: "0", right: "0", zIndex: "100000",
          padding: "12px 16px", background: "#b3261e", color: "#ffffff",
          font: "600 15px/1.4 system-ui, sans-serif", textAlign: "center",
        });
        document.body.appendChild(banner);
      };
      if (document.body) { show(); } else { window.addEventListener("DOMContentLoaded", show); }
      const address = window.location.href;
      const retry = async () => {
        try {
          const answer = await fetch(address, {cache: "no-store", credentials: "same-origin"});
          if (answer.ok) { window.location.reload(); return; }
        } catch (error) { /* the server is still away */ }
        window.setTimeout(retry, retryMs);
      };
      window.setTimeout(retry, retryMs);
    };
  }
  // A websocket that closes before the server has said a word (refused, or the server gone
  // between the page and its connection) never makes Bokeh's connection, so Bokeh's
  // "connection lost" never fires for it: watch for that here.
  const Native = window.WebSocket;
  if (!Native || Native.labWatched) { return; }
  class Watched extends Native {
    constructor(...args) {
      super(...args);
      let heard = false;
      this.addEventListener("message", () => { heard = true; });
      this.addEventListener("close", () => {
        if (!heard && !window.labLeaving) { window.labConnectionLost(); }
      });
    }
  }
  Watched.labWatched = true;
  window.addEventListener("pagehide", () => { window.labLeaving = true; });
  window.WebSocket = Watched;
})();
