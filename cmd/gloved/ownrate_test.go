package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gloved/gloved/daemon/daemontest"
	goosc "github.com/hypebeast/go-osc/osc"
)

// TestAnOpenGlovesGloveIsMeasuredAndJudgedByItsOwnRate: an OpenGloves
// board sets no rate, so the daemon measures its samples (about 100 a
// second from the emulator) and, once two whole windows have shown it,
// judges them against that steady rate: /rate follows its statuses,
// gloved_hand_sample_rate and gloved_hand_nominal_rate say about 100 (both
// said 0, and no loss could be seen), and a 0.6 s silence (shorter than
// the stall time) makes the hand degraded, then streaming again.
func TestAnOpenGlovesGloveIsMeasuredAndJudgedByItsOwnRate(t *testing.T) {
	dir := t.TempDir()
	link := startEmulator(t, dir, "--model", "opengloves", "--silent-at", "9", "--silent-for", "0.6")
	rx, got := daemontest.Listen(t)
	metrics := freePortTCP(t)
	cfg := handConfig(t, dir, fmt.Sprintf("device = \"opengloves\"\nport = %q", link), rx.LocalAddr().String(), "")
	appendMetrics(t, cfg, metrics)
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	p.logLine(t, "gloved running")
	gauge := func(name string) float64 {
		m := regexp.MustCompile(name + `\{hand="right"\} (\S+)`).FindSubmatch(scrape(t, metrics))
		if m == nil {
			t.Fatalf("metrics lack %s", name)
		}
		v, _ := strconv.ParseFloat(string(m[1]), 64)
		return v
	}
	for deadline := time.Now().Add(30 * time.Second); gauge("gloved_hand_nominal_rate") == 0; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no nominal rate after 30 s; statuses %v\n%s", daemontest.Statuses(got.All(), "right"), p.errs.String())
		}
	}
	for _, name := range []string{"gloved_hand_nominal_rate", "gloved_hand_sample_rate"} {
		if v := gauge(name); v < 80 || v > 120 {
			t.Errorf("%s %.1f: want about 100", name, v)
		}
	}
	rates := daemontest.Rates(got.All(), "right")["streaming"]
	if len(rates) == 0 {
		t.Fatalf("no /rate after a streaming status; statuses %v", daemontest.Statuses(got.All(), "right"))
	}
	if r := rates[len(rates)-1]; r < 80 || r > 120 {
		t.Errorf("/rate %.1f while streaming: want about 100", r)
	}
	for deadline := time.Now().Add(30 * time.Second); !daemontest.InOrder(daemontest.Statuses(got.All(), "right"), []string{"streaming", "degraded", "streaming"}); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("a 0.6 s silence never made the hand degraded then streaming; statuses %v\n%s", daemontest.Statuses(got.All(), "right"), p.errs.String())
		}
	}
	if rates := daemontest.Rates(got.All(), "right")["degraded"]; len(rates) == 0 || rates[0] >= 80 {
		t.Errorf("degraded at rates %v: want below 80 (a 0.6 s silence in 2 s)", rates)
	}
}

// TestAnOpenGlovesGloveWhoseLinesAreAllRefusedIsDegradedAndSaysWhy: a
// hand of options.max = 1023 on a glove that sends up to 4095 (an ESP32
// board) refuses every line: the hand says degraded (it stalled, as if
// the glove were silent), and the log says once why and what to set.
func TestAnOpenGlovesGloveWhoseLinesAreAllRefusedIsDegradedAndSaysWhy(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	link := startEmulator(t, dir, "--model", "opengloves")
	rx, got := daemontest.Listen(t)
	cfg := handConfig(t, dir, fmt.Sprintf("device = \"opengloves\"\nport = %q\n[hand.options]\nmax = 1023", link), rx.LocalAddr().String(), "")
	p := startGloved(t, "gloved run", "run", "-c", cfg, "--status=false")
	l := p.logLine(t, "every record is refused")
	if want := "values above options.max = 1023 (an ESP32 board sends up to 4095: set max = 4095)"; !strings.Contains(fmt.Sprint(l["error"]), want) {
		t.Errorf("said %v; want the error to say %q", l, want)
	}
	waitFor(t, got, "degraded", func(b []*goosc.Bundle) bool {
		return slices.Contains(daemontest.Statuses(b, "right"), "degraded")
	})
	time.Sleep(time.Second)
	if s := daemontest.Statuses(got.All(), "right"); slices.Contains(s, "stalled") || slices.Contains(s, "streaming") {
		t.Errorf("statuses %v: want degraded, never stalled nor streaming", s)
	}
	if n := strings.Count(p.errs.String(), "every record is refused"); n != 1 {
		t.Errorf("said %d times, want once:\n%s", n, p.errs.String())
	}
}
