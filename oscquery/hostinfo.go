package oscquery

// HostInfo is the answer to ?HOST_INFO: the server's name, which optional
// attributes it serves, and where its OSC server is. gloved has no
// WebSocket (no LISTEN), so WS_IP and WS_PORT are left out.
type HostInfo struct {
	Name         string          `json:"NAME,omitempty"`
	Extensions   map[string]bool `json:"EXTENSIONS"`
	OSCIP        string          `json:"OSC_IP,omitempty"`
	OSCPort      int             `json:"OSC_PORT,omitempty"`
	OSCTransport string          `json:"OSC_TRANSPORT,omitempty"`
}
