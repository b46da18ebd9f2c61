/**
 * The embed script a site includes to get a chat bubble: a round button in the bottom-right corner that toggles an
 * iframe of the chat page. Plain ES5-ish JavaScript with no dependencies; every value it is built from is JSON-encoded
 * (and `<` escaped), so a slug or a label cannot break out of the script.
 */
const js = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c');

export function embedScript(pageUrl: string, labels: { open: string; close: string }): string {
  return `(function () {
  if (window.__paiflowChat && window.__paiflowChat[${js(pageUrl)}]) return;
  (window.__paiflowChat = window.__paiflowChat || {})[${js(pageUrl)}] = true;
  var url = ${js(pageUrl)}, labels = ${js(labels)};
  function start() {
    var frame = null;
    var button = document.createElement('button');
    button.type = 'button';
    button.setAttribute('aria-label', labels.open);
    button.setAttribute('data-paiflow-chat-bubble', '');
    button.textContent = '\\uD83D\\uDCAC';
    button.style.cssText = 'position:fixed;right:20px;bottom:20px;width:56px;height:56px;border-radius:50%;' +
      'border:0;background:#4f46e5;color:#fff;font-size:26px;cursor:pointer;' +
      'box-shadow:0 4px 14px rgba(0,0,0,.25);z-index:2147483646';
    button.onclick = function () {
      if (!frame) {
        frame = document.createElement('iframe');
        frame.src = url;
        frame.title = labels.open;
        frame.setAttribute('data-paiflow-chat-frame', '');
        frame.style.cssText = 'position:fixed;right:20px;bottom:88px;width:380px;height:560px;' +
          'max-width:calc(100vw - 40px);max-height:calc(100vh - 110px);border:1px solid #e4e4e7;' +
          'border-radius:12px;background:#fff;' +
          'box-shadow:0 8px 30px rgba(0,0,0,.2);z-index:2147483647';
        document.body.appendChild(frame);
      } else {
        frame.style.display = frame.style.display === 'none' ? '' : 'none';
      }
      var shown = frame.style.display !== 'none';
      button.setAttribute('aria-label', shown ? labels.close : labels.open);
      button.textContent = shown ? '\\u2715' : '\\uD83D\\uDCAC';
    };
    document.body.appendChild(button);
  }
  if (document.body) start();
  else document.addEventListener('DOMContentLoaded', start);
})();
`;
}
