package access_test

import (
	"fmt"
	"net"
	"net/http/httptest"
	"net/netip"

	"github.com/gloved/gloved/access"
)

// A server refuses a request that names it by another host name: a page
// that rebound its DNS name to 127.0.0.1.
func ExampleRules_Refuse() {
	rules := access.Rules{Allow: []netip.Prefix{netip.MustParsePrefix("192.168.1.0/24")}}
	listen := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 9432}
	r := httptest.NewRequest("GET", "/?HOST_INFO", nil)
	r.RemoteAddr, r.Host = "127.0.0.1:40000", "127.0.0.1:9432"
	fmt.Printf("%q\n", rules.Refuse(r, listen))
	r.Host = "rebind.attacker.example:9432"
	fmt.Printf("%q\n", rules.Refuse(r, listen))
	// Output:
	// ""
	// "Host names another server: use this one's address, localhost or the machine's name"
}
