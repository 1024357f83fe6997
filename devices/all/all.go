package all

import (
	// Every shipped glove driver: a new one is one more line here.
	_ "github.com/gloved/gloved/devices/cyberglove"
	_ "github.com/gloved/gloved/devices/opengloves"
	_ "github.com/gloved/gloved/devices/sim"
)
