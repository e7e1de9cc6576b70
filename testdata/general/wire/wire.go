// Package wire encodes the fixed-size records of a handshake protocol.
package wire

import (
	"encoding/binary"
	"errors"
)

// ClientHello opens a handshake.
type ClientHello struct {
	Version   uint16
	Random    [32]byte
	SessionID [32]byte
	Suites    [64]uint16
	Exts      [8]Extension
}

// ServerHello answers a ClientHello.
type ServerHello struct {
	Version   uint16
	Random    [32]byte
	SessionID [32]byte
	Suite     uint16
}

// KeyShare carries an ephemeral public key.
type KeyShare struct {
	Group uint16
	Key   [133]byte
}

// Certificate carries the server's certificate and its signature, of
// which the first SigLen bytes are used.
type Certificate struct {
	Serial  [20]byte
	Subject [256]byte
	PubKey  [133]byte
	SigLen  uint8
	Sig     [139]byte
}

// CertVerify proves the possession of the certificate's key.
type CertVerify struct {
	Scheme uint16
	Sig    [132]byte
}

// Finished closes a handshake.
type Finished struct {
	Verify [32]byte
}

// Ticket resumes a session.
type Ticket struct {
	Lifetime uint32
	AgeAdd   uint32
	Nonce    [8]byte
	Label    [255]byte
}

// KeyUpdate asks the peer to change keys.
type KeyUpdate struct {
	Request bool
}

// Alert ends a connection.
type Alert struct {
	Level       uint8
	Description uint8
}

// Heartbeat checks that the peer is alive.
type Heartbeat struct {
	Kind    uint8
	Payload [256]byte
}

// EarlyData carries data sent before the handshake ends.
type EarlyData struct {
	MaxSize uint32
	Data    [1024]byte
}

// PSK is a pre-shared key offered for resumption.
type PSK struct {
	Identity [255]byte
	Age      uint32
	Binder   [48]byte
}

// Cookie is echoed by the client after a retry.
type Cookie struct {
	Value [255]byte
}

// Extension is one generic extension.
type Extension struct {
	Type uint16
	Data [40]byte
}

// Datagram is an unreliable message of at most 1200 bytes.
type Datagram struct {
	Seq     uint64
	Len     uint16
	Payload [1200]byte
}

// Record frames the messages.
type Record struct {
	Type    uint8
	Version uint16
	Length  uint16
	MAC     [32]byte
}

// Marshal appends the wire form of v, a pointer to one of the package's
// records, to a new buffer.
func Marshal(v any) ([]byte, error) {
	var b []byte
	switch m := v.(type) {
	case *ClientHello:
		b = binary.BigEndian.AppendUint16(b, m.Version)
		b = append(b, m.Random[:]...)
		b = append(b, m.SessionID[:]...)
		for _, s := range m.Suites {
			if s == 0 {
				break
			}
			b = binary.BigEndian.AppendUint16(b, s)
		}
		for _, e := range m.Exts {
			if e.Type == 0 {
				break
			}
			b = binary.BigEndian.AppendUint16(b, e.Type)
			b = append(b, e.Data[:]...)
		}
	case *ServerHello:
		b = binary.BigEndian.AppendUint16(b, m.Version)
		b = append(b, m.Random[:]...)
		b = append(b, m.SessionID[:]...)
		b = binary.BigEndian.AppendUint16(b, m.Suite)
	case *KeyShare:
		if m.Key[0] != 4 {
			return nil, errors.New("wire: key share is not an uncompressed point")
		}
		b = binary.BigEndian.AppendUint16(b, m.Group)
		b = append(b, m.Key[:]...)
	case *Certificate:
		b = append(b, m.Serial[:]...)
		b = append(b, m.Subject[:]...)
		b = append(b, m.PubKey[:]...)
		b = append(b, m.SigLen)
		b = append(b, m.Sig[:m.SigLen]...)
	case *CertVerify:
		b = binary.BigEndian.AppendUint16(b, m.Scheme)
		b = append(b, m.Sig[:]...)
	case *Finished:
		b = append(b, m.Verify[:]...)
	case *Ticket:
		b = binary.BigEndian.AppendUint32(b, m.Lifetime)
		b = binary.BigEndian.AppendUint32(b, m.AgeAdd)
		b = append(b, m.Nonce[:]...)
		b = append(b, m.Label[:]...)
	case *KeyUpdate:
		if m.Request {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	case *Alert:
		if m.Level != 1 && m.Level != 2 {
			return nil, errors.New("wire: bad alert level")
		}
		b = append(b, m.Level, m.Description)
	case *Heartbeat:
		b = append(b, m.Kind)
		b = append(b, m.Payload[:]...)
	case *EarlyData:
		b = binary.BigEndian.AppendUint32(b, m.MaxSize)
		b = append(b, m.Data[:]...)
	case *PSK:
		b = append(b, m.Identity[:]...)
		b = binary.BigEndian.AppendUint32(b, m.Age)
		b = append(b, m.Binder[:]...)
	case *Cookie:
		b = append(b, m.Value[:]...)
	case *Extension:
		b = binary.BigEndian.AppendUint16(b, m.Type)
		b = append(b, m.Data[:]...)
	case *Datagram:
		if int(m.Len) > len(m.Payload) {
			return nil, errors.New("wire: datagram too long")
		}
		b = binary.BigEndian.AppendUint64(b, m.Seq)
		b = append(b, m.Payload[:m.Len]...)
	case *Record:
		b = append(b, m.Type)
		b = binary.BigEndian.AppendUint16(b, m.Version)
		b = binary.BigEndian.AppendUint16(b, m.Length)
		b = append(b, m.MAC[:]...)
	default:
		return nil, errors.New("wire: not a record")
	}
	return b, nil
}
