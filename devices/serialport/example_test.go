package serialport_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gloved/gloved/devices/cyberglove"
	"github.com/gloved/gloved/devices/cyberglove/layout"
	"github.com/gloved/gloved/devices/emulator"
	"github.com/gloved/gloved/devices/serialport"
	"github.com/gloved/gloved/devices/sim"
)

// Probe asks what is on a port: here an emulated right-hand glove on a
// pseudo-terminal, as `gloved emulate` serves one.
func ExampleProbe() {
	e, err := emulator.New(emulator.Opts{Sensors: 22, Right: true, Source: func(t time.Duration, s *[layout.Slots]uint16) { sim.Raw(sim.Grasp, t, s) }})
	if err != nil {
		panic(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- emulator.Run(ctx, e, "", emulator.Hangup{}, func(path string) { ready <- path }) }()
	path := <-ready

	port, err := serialport.System.Describe(path)
	if err != nil {
		panic(err)
	}
	unit, err := serialport.Probe(path, serialport.DefaultProbeOpts, cyberglove.Probe)
	fmt.Println(port.Description()+":", unit, err)
	stop()
	<-done
	// Output: pseudo-terminal: CyberGlove (22 sensors, right) <nil>
}
