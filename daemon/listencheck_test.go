package daemon

import "testing"

// TestAnAddressIsTheSameSocketHoweverSpelt: a reload that keeps its
// listen address in another spelling, or within an every-address one
// the running daemon holds, is not refused as a port in use by gloved's
// own socket; another port, network or address is another socket.
func TestAnAddressIsTheSameSocketHoweverSpelt(t *testing.T) {
	for _, tc := range []struct {
		a, b listenAddr
		same bool
	}{
		{listenAddr{"osc.listen", "udp", "127.0.0.1:9431"}, listenAddr{"osc.listen", "udp", "localhost:9431"}, true},
		{listenAddr{"metrics.listen", "tcp", ":9100"}, listenAddr{"view.listen", "tcp", "127.0.0.1:9100"}, true},
		{listenAddr{"metrics.listen", "tcp", "0.0.0.0:9100"}, listenAddr{"metrics.listen", "tcp", "127.0.0.1:9100"}, true},
		{listenAddr{"view.listen", "tcp", "127.0.0.1:8080"}, listenAddr{"view.listen", "tcp", "127.0.0.1:8081"}, false},
		{listenAddr{"osc.listen", "udp", "127.0.0.1:9100"}, listenAddr{"metrics.listen", "tcp", "127.0.0.1:9100"}, false},
		{listenAddr{"view.listen", "tcp", "127.0.0.1:8080"}, listenAddr{"view.listen", "tcp", "127.0.0.2:8080"}, false},
		{listenAddr{"oscquery.listen", "tcp", "127.0.0.1:0"}, listenAddr{"oscquery.listen", "tcp", "127.0.0.1:0"}, false},
	} {
		if got := tc.a.sameSocket(tc.b); got != tc.same {
			t.Errorf("%s %q and %q: same socket %v, want %v", tc.a.network, tc.a.addr, tc.b.addr, got, tc.same)
		}
		if got := tc.b.sameSocket(tc.a); got != tc.same {
			t.Errorf("%s %q and %q (swapped): same socket %v, want %v", tc.a.network, tc.b.addr, tc.a.addr, got, tc.same)
		}
	}
}
