package remote_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sycbuild/sycbuild/cache"
	"github.com/sycbuild/sycbuild/cache/remote"
	"github.com/sycbuild/sycbuild/internal/testenv"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their files.
func selfSigned(t *testing.T) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile
}

// TestTLSAndAuthorization runs bazel-remote with TLS and basic
// authentication: a client with the CA and the authorization header
// stores and finds an entry; one without the header, or one checking the
// certificate against the system's roots, is off after one warning.
func TestTLSAndAuthorization(t *testing.T) {
	certFile, keyFile := selfSigned(t)
	sum := sha1.Sum([]byte("s3cret"))
	htpasswd := filepath.Join(t.TempDir(), "htpasswd")
	os.WriteFile(htpasswd, []byte("ci:{SHA}"+base64.StdEncoding.EncodeToString(sum[:])+"\n"), 0o644)
	srv := testenv.StartBazelRemote(t, "--tls_cert_file", certFile, "--tls_key_file", keyFile, "--htpasswd_file", htpasswd)
	url := "grpcs://" + srv.Addr
	auth := "authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("ci:s3cret"))
	ctx := context.Background()
	j := newJob(20, true)
	src, dst := t.TempDir(), t.TempDir()
	j.write(t, src)

	var w warnings
	c, err := remote.Open(ctx, remote.Options{URL: url, CACert: certFile, Headers: []string{auth}, Warn: w.add, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	c.Put(ctx, j.a, &cache.Result{Output: j.text}, src)
	c.Close()
	if got := c.Counters(); got.Uploads != 1 {
		t.Errorf("counters = %+v, warnings %q", got, w.get())
	}
	c, err = remote.Open(ctx, remote.Options{URL: url, CACert: certFile, Headers: []string{auth}, Warn: w.add, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Get(ctx, j.a, dst)
	if err != nil {
		t.Fatal(err)
	}
	j.check(t, r, dst)
	c.Close()
	if ws := w.get(); len(ws) > 0 {
		t.Errorf("warnings: %q", ws)
	}

	for _, o := range []remote.Options{
		{URL: url, CACert: certFile},        // no authorization
		{URL: url, Headers: []string{auth}}, // the system's roots
	} {
		var w warnings
		o.Warn, o.Timeout = w.add, 10*time.Second
		c, err := remote.Open(ctx, o)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := c.Get(ctx, j.a, t.TempDir()); r != nil || err != nil {
			t.Errorf("Get = %v, %v; want a miss", r, err)
		}
		c.Close()
		if ws := w.get(); len(ws) != 1 || !c.Off() {
			t.Errorf("warnings %q, off %v; want one warning and off", ws, c.Off())
		} else {
			t.Logf("warning: %s", ws[0])
		}
	}
	if strings.Contains(srv.Log(), "panic") {
		t.Errorf("server log:\n%s", srv.Log())
	}
}
