package daemon

import (
	"context"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"

	"github.com/gloved/gloved/internal/uptime"
)

// watchdogInterval is how often to ping systemd's watchdog: half its
// timeout, or 0 when the service has none.
func watchdogInterval() time.Duration {
	w, err := sd.SdWatchdogEnabled(false)
	if err != nil || w <= 0 {
		return 0
	}
	return w / 2
}

// liveness pings the watchdog every interval while the daemon is healthy,
// until ctx ends. It runs beside the frame loops, not in them, so a hand
// waiting for its glove (absent, reconnecting, silent) keeps the service
// alive; a frame loop wedged in one frame stops the pings, and systemd
// restarts the service.
func (d *Daemon) liveness(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if d.healthy(every) {
			sd.SdNotify(false, sd.SdNotifyWatchdog)
			d.watchdogPings.Add(1)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// healthy reports whether every frame loop is waiting or has been busy
// with its current frame for less than limit.
func (d *Daemon) healthy(limit time.Duration) bool {
	now := busyStamp()
	for _, h := range d.hands {
		if since := h.busySince.Load(); since != 0 && time.Duration(now-since) > limit {
			return false
		}
	}
	return true
}

// busyStamp is now as a hand's busySince holds it: the monotonic clock's
// reading (setting the wall clock forward must not look like a wedged
// loop), never 0, which means waiting.
func busyStamp() int64 { return int64(uptime.Now()) + 1 }
