/*
 * Offline stand-in for Google's gapi loader (https://apis.google.com/js/api.js), served by the browser
 * test in place of the real script, which this machine cannot download. The Firebase JS SDK and the
 * Auth emulator's helper iframe use only this much of it: gapi.load('gapi.iframes'), context.open()
 * of the helper iframe, getParentIframe(), and register()/send() of messages between the two windows
 * (here plain postMessage). Everything else in the sign-in flow is the real SDK and the real emulator.
 */
/* global window, document */
(function () {
  var FILTER = function () { return true; };
  var channels = [];
  var pending = {};
  var sequence = 0;

  function Channel(target) {
    this.target = target;
    this.handlers = {};
    this.queued = [];
    channels.push(this);
  }
  Channel.prototype.register = function (type, handler) {
    this.handlers[type] = handler;
    var waiting = this.queued.filter(function (q) { return q.message.type === type; });
    this.queued = this.queued.filter(function (q) { return q.message.type !== type; });
    waiting.forEach((q) => this.answer(q.message, q.source));
  };
  Channel.prototype.send = function (type, data, callback) {
    var id = 'm' + (++sequence) + '-' + Math.random();
    pending[id] = callback;
    this.target.postMessage({ __gapiShim: 'request', id: id, type: type, data: data }, '*');
  };
  Channel.prototype.answer = function (message, source) {
    var result = this.handlers[message.type](message.data);
    Promise.resolve(result).then(function (value) {
      source.postMessage({ __gapiShim: 'response', id: message.id, responses: [value] }, '*');
    });
  };
  Channel.prototype.restyle = function () { return Promise.resolve(); };

  window.addEventListener('message', function (event) {
    var message = event.data;
    if (!message || typeof message !== 'object' || !message.__gapiShim) return;
    if (message.__gapiShim === 'response') {
      var callback = pending[message.id];
      delete pending[message.id];
      if (callback) callback(message.responses);
      return;
    }
    var channel = channels.filter(function (c) { return c.target === event.source; })[0];
    if (!channel) return;
    if (channel.handlers[message.type]) channel.answer(message, event.source);
    else channel.queued.push({ message: message, source: event.source });
  });

  var context = {
    open: function (options, onOpen) {
      var iframe = document.createElement('iframe');
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (name) {
        if (name === 'style') Object.assign(iframe.style, attributes.style);
        else iframe.setAttribute(name, attributes[name]);
      });
      var loaded = new Promise(function (resolve) { iframe.addEventListener('load', resolve); });
      iframe.src = options.url;
      (options.where || document.body).appendChild(iframe);
      var channel = new Channel(iframe.contentWindow);
      channel.ping = function (callback) {
        return loaded.then(function () { if (callback) callback(); });
      };
      return Promise.resolve(onOpen(channel));
    },
    getParentIframe: function () { return new Channel(window.parent); },
  };

  window.gapi = {
    load: function (_name, options) {
      var callback = typeof options === 'function' ? options : options && options.callback;
      setTimeout(function () { if (callback) callback(); });
    },
    iframes: { getContext: function () { return context; }, CROSS_ORIGIN_IFRAMES_FILTER: FILTER },
  };

  var script = document.currentScript;
  var onload = script && script.src.indexOf('?') >= 0 ? new URLSearchParams(script.src.split('?')[1]).get('onload') : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === 'function') window[onload]();
    else if (typeof window.gapi_onload === 'function') window.gapi_onload();
  });
})();
