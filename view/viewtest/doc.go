// Package viewtest drives a headless Chromium over the Chrome DevTools
// Protocol, for tests of the live page: load a URL, evaluate JavaScript
// in it, take a screenshot. It speaks only the few CDP methods it needs
// (Target, Runtime.evaluate, Page.captureScreenshot) over the same
// WebSocket library as the page's stream.
//
// Source: the Chrome DevTools Protocol
// (chromedevtools.github.io/devtools-protocol), and Debian's chromium
// package, whose /usr/bin/chromium it starts.
package viewtest
