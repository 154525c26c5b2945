// go-random: a pirate-arena bot (protocol v1.0, protocol/SPEC.md) that plays a random legal
// action in every decision. stdin/stdout carry frames, stderr is the log.
// Randomness: SplitMix64 seeded with start.bot_seed, as in the JS, C and Rust kits.
package main

import (
	"bufio"
	"errors"
	"io"
	"log"
	"os"
	"strings"
)

var games = []string{"dead-mans-draw", "opito-bay", "karibik"}

type splitMix64 struct{ state uint64 }

func (r *splitMix64) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// below returns a number in [0, n): the next value modulo n.
func (r *splitMix64) below(n int) int { return int(r.next() % uint64(n)) }

// shuffle is Fisher-Yates, last index first, as in the other kits.
func (r *splitMix64) shuffle(items []int64) {
	for i := len(items) - 1; i > 0; i-- {
		j := r.below(i + 1)
		items[i], items[j] = items[j], items[i]
	}
}

// asUint64 reads an integer as uint64 (a negative one wraps), e.g. bot_seed.
func asUint64(value interface{}) uint64 {
	switch v := value.(type) {
	case uint64:
		return v
	case int64:
		return uint64(v)
	}
	return 0
}

// buildAction returns an action for a decision the arena does not enumerate (legal is nil).
func buildAction(game, kind string, rng *splitMix64) (interface{}, bool) {
	if game == "karibik" && kind == "bribe" {
		// One rum card per ship, Arriba..Fuego: 6 distinct values from -1..5; the card left
		// out is the tie-breaker. Every round a player holds all 7 cards again.
		cards := []int64{-1, 0, 1, 2, 3, 4, 5}
		rng.shuffle(cards)
		return cards[:6], true
	}
	return nil, false
}

func decide(request Message, game string, rng *splitMix64) interface{} {
	if legal, ok := request["legal"].([]interface{}); ok && len(legal) > 0 {
		return legal[rng.below(len(legal))]
	}
	kind, _ := request["kind"].(string)
	if action, ok := buildAction(game, kind, rng); ok {
		return action
	}
	log.Printf("no builder for the non-enumerated decision %s/%s; answering nil", game, kind)
	return nil
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("go-random: ")
	in := bufio.NewReader(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	game := ""
	rng := &splitMix64{}
	for {
		message, err := readMessage(in)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			log.Fatalf("reading a frame: %v", err)
		}
		switch message["type"] {
		case "hello":
			if version, _ := message["protocol"].(string); !strings.HasPrefix(version, "1.") {
				log.Fatalf("the arena speaks protocol %q; this bot speaks 1.x", version)
			}
			err = writeMessage(out, Message{
				"type": "hello", "protocol": "1.0", "name": "go-random", "version": "1.0.0", "games": games,
			})
		case "start":
			game, _ = message["game"].(string)
			rng = &splitMix64{state: asUint64(message["bot_seed"])}
		case "request":
			action := decide(message, game, rng)
			err = writeMessage(out, Message{"type": "action", "id": message["id"], "action": action})
		case "bye":
			return
		} // "end" and unknown types need no answer
		if err != nil {
			log.Fatalf("writing a frame: %v", err)
		}
	}
}
