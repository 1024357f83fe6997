package osc

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestNewTargetsReadsAddressesAndPatterns: fixed addresses (a name is
// resolved) in order, each once, and oscquery: globs as patterns.
func TestNewTargetsReadsAddressesAndPatterns(t *testing.T) {
	tg, err := NewTargets([]string{"127.0.0.1:9000", "oscquery:VRChat-Client-*", "localhost:9001", "127.0.0.1:9000", "oscquery:Resolume*"})
	if err != nil {
		t.Fatal(err)
	}
	want := []netip.AddrPort{ap("127.0.0.1:9000"), ap("127.0.0.1:9001")}
	if got := tg.Addrs(); !slices.Equal(got, want) {
		t.Errorf("Addrs %v, want %v", got, want)
	}
	if got := tg.Patterns(); !slices.Equal(got, []string{"VRChat-Client-*", "Resolume*"}) {
		t.Errorf("Patterns %v", got)
	}
	var none *Targets
	if none.Addrs() != nil {
		t.Error("a nil Targets has destinations")
	}
}

// TestNewTargetsRefusesWhatIsNotATarget: each bad entry is one line
// naming it and saying what to write.
func TestNewTargetsRefusesWhatIsNotATarget(t *testing.T) {
	for _, s := range []string{"127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", ":9000", "oscquery:", "oscquery:VRChat-[", "no-such-host.invalid:9000", "127.0.0.1:http"} {
		_, err := NewTargets([]string{"127.0.0.1:9000", s})
		if err == nil || !strings.Contains(err.Error(), s) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want one line naming it", s, err)
		}
	}
}

// TestTargetsFollowTheServicesFound: a service whose instance name matches
// a pattern is a destination from when it is found, at its new address
// when it moves, until it is lost; one that matches no pattern is never
// one; found services come after the fixed ones, by name, each address
// once.
func TestTargetsFollowTheServicesFound(t *testing.T) {
	tg, err := NewTargets([]string{"127.0.0.1:9000", "oscquery:VRChat-Client-*"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		found, lost string
		at          string
		want        []string
	}{
		{found: "VRChat-Client-B2", at: "192.168.1.9:9000", want: []string{"127.0.0.1:9000", "192.168.1.9:9000"}},
		{found: "TouchOSC", at: "127.0.0.1:8000", want: []string{"127.0.0.1:9000", "192.168.1.9:9000"}},
		{found: "VRChat-Client-A1", at: "[::ffff:127.0.0.1]:9002", want: []string{"127.0.0.1:9000", "127.0.0.1:9002", "192.168.1.9:9000"}},
		{found: "VRChat-Client-B2", at: "192.168.1.10:9000", want: []string{"127.0.0.1:9000", "127.0.0.1:9002", "192.168.1.10:9000"}},
		{found: "VRChat-Client-C3", at: "127.0.0.1:9000", want: []string{"127.0.0.1:9000", "127.0.0.1:9002", "192.168.1.10:9000"}},
		{lost: "VRChat-Client-A1", want: []string{"127.0.0.1:9000", "192.168.1.10:9000"}},
		{lost: "TouchOSC", want: []string{"127.0.0.1:9000", "192.168.1.10:9000"}},
	}
	for i, s := range steps {
		if s.found != "" {
			tg.Found(s.found, ap(s.at))
		} else {
			tg.Lost(s.lost)
		}
		var got []string
		for _, a := range tg.Addrs() {
			got = append(got, a.String())
		}
		if !slices.Equal(got, s.want) {
			t.Errorf("step %d: %v, want %v", i, got, s.want)
		}
	}
}

// TestTargetsAddrsIsSafeWhileServicesComeAndGo: readers on other
// goroutines see whole lists while one browser finds and loses services
// (run with -race), and reading allocates nothing.
func TestTargetsAddrsIsSafeWhileServicesComeAndGo(t *testing.T) {
	tg, err := NewTargets([]string{"127.0.0.1:9000", "oscquery:*"})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				a := tg.Addrs()
				if len(a) == 0 || a[0] != ap("127.0.0.1:9000") {
					t.Errorf("a reader saw %v", a)
					return
				}
			}
		})
	}
	for i := range 2000 {
		name := []string{"a", "b", "c"}[i%3]
		if i%2 == 0 {
			tg.Found(name, netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, byte(i % 7)}), 9000))
		} else {
			tg.Lost(name)
		}
	}
	close(stop)
	wg.Wait()
	if n := testing.AllocsPerRun(100, func() { _ = tg.Addrs() }); n != 0 {
		t.Errorf("Addrs allocated %v times", n)
	}
}

// TestSendToSendsToAProfilesTargetsOnly: SendTo reaches the profile's
// destinations, each packet once, counted as Send counts; not the
// subscribers nor osc.targets; and allocates nothing.
func TestSendToSendsToAProfilesTargetsOnly(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	if err := h.SetTargets([]string{"127.0.0.1:9430"}); err != nil {
		t.Fatal(err)
	}
	tg, err := NewTargets([]string{"127.0.0.1:9000", "127.0.0.1:39539"})
	if err != nil {
		t.Fatal(err)
	}
	pk := [][]byte{[]byte("a"), []byte("b")}
	h.SendTo(tg, pk)
	got := rec.destinations()
	want := []netip.AddrPort{ap("127.0.0.1:9000"), ap("127.0.0.1:9000"), ap("127.0.0.1:39539"), ap("127.0.0.1:39539")}
	if !slices.Equal(got, want) || h.Stats.PacketsSent.Load() != 4 {
		t.Errorf("sent to %v (%d counted), want %v", got, h.Stats.PacketsSent.Load(), want)
	}
	h.SendTo(nil, pk)
	if n := len(rec.destinations()); n != 0 {
		t.Errorf("a nil Targets was sent %d packets", n)
	}
	real, app := startHub(t)
	at, err := NewTargets([]string{app.LocalAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { real.SendTo(at, pk) }); n != 0 {
		t.Errorf("SendTo allocated %v times", n)
	}
}

// TestSendSendsToFoundServicesAndSubscribersOnce: the gloved profile's
// destinations may be found at run time; a subscriber at one of them gets
// each packet once.
func TestSendSendsToFoundServicesAndSubscribersOnce(t *testing.T) {
	h, rec, _ := testHub(t, Policy{})
	if err := h.SetTargets([]string{"127.0.0.1:9430", "oscquery:TouchDesigner*"}); err != nil {
		t.Fatal(err)
	}
	h.Targets().Found("TouchDesigner-1", ap("127.0.0.1:9500"))
	if _, _, err := h.subscribe(netip.MustParseAddr("127.0.0.1"), ap("127.0.0.1:9500"), ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.subscribe(netip.MustParseAddr("127.0.0.1"), ap("127.0.0.1:9600"), ""); err != nil {
		t.Fatal(err)
	}
	rec.destinations()
	h.Send([][]byte{[]byte("x")})
	want := []netip.AddrPort{ap("127.0.0.1:9430"), ap("127.0.0.1:9500"), ap("127.0.0.1:9600")}
	if got := rec.destinations(); !slices.Equal(got, want) {
		t.Errorf("sent to %v, want %v", got, want)
	}
}

// TestMatchInstance: globs match instance names as DNS-SD compares them,
// ignoring case; a malformed glob matches nothing.
func TestMatchInstance(t *testing.T) {
	for _, tc := range []struct {
		glob, name string
		want       bool
	}{
		{"VRChat-Client-*", "VRChat-Client-A1B2C3", true},
		{"VRChat-Client-*", "vrchat-client-a1b2c3", true},
		{"vrchat-client-*", "VRCHAT-CLIENT-A1", true},
		{"VRChat-Client-?", "VRChat-Client-AB", false},
		{"VRChat-Client-*", "Other-App", false},
		{"[A-C]*", "bob", true},
		{"gloved\\*", "gloved*", true},
		{"gloved\\*", "glovedx", false},
		{"[", "[", false},
	} {
		if got := MatchInstance(tc.glob, tc.name); got != tc.want {
			t.Errorf("MatchInstance(%q, %q) = %v, want %v", tc.glob, tc.name, got, tc.want)
		}
	}
}

// TestFoundServicesAreCapped: a flood of instances matching the patterns
// (anyone on the link can answer mDNS with any number) is sent to at most
// MaxFoundPerGlob of a pattern and MaxFound in all; those already sent to
// keep their places, and one that waited takes the place of one lost, in
// the order they came.
func TestFoundServicesAreCapped(t *testing.T) {
	tg, err := NewTargets([]string{"127.0.0.1:9000", "oscquery:VRChat-Client-*", "oscquery:Other-*", "oscquery:Third-*"})
	if err != nil {
		t.Fatal(err)
	}
	ap := func(i int) netip.AddrPort {
		return netip.MustParseAddrPort(fmt.Sprintf("10.0.%d.%d:9000", i/200, i%200+1))
	}
	name := func(glob string, i int) string { return fmt.Sprintf("%s%03d", glob, i) }
	for i := range 40 {
		tg.Found(name("VRChat-Client-", i), ap(i))
	}
	sent := func() map[netip.AddrPort]bool {
		m := map[netip.AddrPort]bool{}
		for _, a := range tg.Addrs()[1:] {
			m[a] = true
		}
		return m
	}
	if got := sent(); len(got) != MaxFoundPerGlob {
		t.Fatalf("40 instances of one pattern: %d sent to, want %d", len(got), MaxFoundPerGlob)
	}
	for i := range 40 {
		if want := i < MaxFoundPerGlob; sent()[ap(i)] != want || tg.Waiting(name("VRChat-Client-", i)) == want {
			t.Errorf("instance %d: sent to %v, want %v (the first come keep their places)", i, sent()[ap(i)], want)
		}
	}
	for i := range 40 {
		tg.Found(name("Other-", i), ap(100+i))
		tg.Found(name("Third-", i), ap(200+i))
	}
	if got := len(tg.Addrs()); got != 1+MaxFound {
		t.Errorf("three patterns flooded: %d destinations, want the fixed one and %d", got, MaxFound)
	}
	if tg.LeftOut() != 3*40-MaxFound {
		t.Errorf("left out %d, want %d", tg.LeftOut(), 3*40-MaxFound)
	}
	// One sent to goes: the first that waited of a pattern the caps
	// admit takes its place; a waiting one that moved is sent to where it
	// is now.
	tg.Found(name("VRChat-Client-", 8), ap(300))
	tg.Lost(name("VRChat-Client-", 0))
	if got := sent(); got[ap(0)] || !got[ap(300)] || len(got) != MaxFound {
		t.Errorf("after a loss: %v", tg.Addrs())
	}
	// A waiting one that goes is forgotten.
	tg.Lost(name("VRChat-Client-", 9))
	tg.Lost(name("VRChat-Client-", 1))
	if got := sent(); got[ap(9)] || !got[ap(10)] {
		t.Errorf("a lost waiter was admitted, or the next was not: %v", tg.Addrs())
	}
	if n := testing.AllocsPerRun(100, func() { tg.Addrs() }); n != 0 {
		t.Errorf("Addrs allocates %v", n)
	}
}

// TestTheWaitingListIsBounded: at most maxWaiting instances wait; the
// oldest go first.
func TestTheWaitingListIsBounded(t *testing.T) {
	tg, err := NewTargets([]string{"oscquery:*"})
	if err != nil {
		t.Fatal(err)
	}
	for i := range MaxFound + maxWaiting + 100 {
		tg.Found(fmt.Sprintf("app-%05d", i), netip.MustParseAddrPort(fmt.Sprintf("10.1.%d.%d:9000", i/250, i%250+1)))
	}
	if n := len(tg.waiting); n != maxWaiting {
		t.Errorf("%d waiting, want %d", n, maxWaiting)
	}
	if tg.Waiting(fmt.Sprintf("app-%05d", MaxFoundPerGlob)) || !tg.Waiting(fmt.Sprintf("app-%05d", MaxFound+maxWaiting+99)) {
		t.Errorf("the oldest waiter was kept or the newest dropped")
	}
}
