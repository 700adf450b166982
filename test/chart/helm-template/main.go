// helm-template renders a Helm 3 chart the way `helm template` does, for tests on a
// machine where no helm binary can be installed: Go's text/template with sprig v3
// (Helm's function library), Helm's own functions (include, tpl, required, toYaml,
// fromYaml, toJson, fromJson, lookup), Helm's values coalescing (chart defaults, then
// each -f file in order; null deletes a key) and Capabilities from --api-versions.
//
//	helm-template --chart DIR --name NAME --namespace NS [-f values.yaml]... [--api-versions v1,apps/v1,...] [--kube-version v1.20.2] [--print-values] [--notes]
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v2"
)

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type apiVersions []string

func (a apiVersions) Has(v string) bool {
	for _, x := range a {
		if x == v {
			return true
		}
	}
	return false
}

func main() {
	var valueFiles multiFlag
	chartDir := flag.String("chart", "", "chart directory")
	name := flag.String("name", "release", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	versions := flag.String("api-versions", "v1", "comma-separated API group versions the cluster serves")
	kubeVersion := flag.String("kube-version", "v1.20.2", "cluster version")
	printValues := flag.Bool("print-values", false, "print the coalesced values as JSON instead of manifests")
	notes := flag.Bool("notes", false, "render templates/NOTES.txt instead of manifests")
	flag.Var(&valueFiles, "f", "values file (repeatable, later wins)")
	flag.Parse()
	if err := run(*chartDir, *name, *namespace, strings.Split(*versions, ","), *kubeVersion, valueFiles, *printValues, *notes); err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
}

func readYAML(path string) (map[string]interface{}, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out map[string]interface{}
	if err := yaml.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return normalize(out).(map[string]interface{}), nil
}

// normalize turns yaml.v2's map[interface{}]interface{} into JSON-like maps, as Helm does.
func normalize(v interface{}) interface{} {
	switch t := v.(type) {
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, val := range t {
			m[fmt.Sprint(k)] = normalize(val)
		}
		return m
	case map[string]interface{}:
		for k, val := range t {
			t[k] = normalize(val)
		}
		return t
	case []interface{}:
		for i, val := range t {
			t[i] = normalize(val)
		}
		return t
	case nil:
		return nil
	default:
		return t
	}
}

// coalesce merges src over dst like Helm: maps merge deeply, other values replace, null deletes.
func coalesce(dst, src map[string]interface{}) map[string]interface{} {
	if dst == nil {
		dst = map[string]interface{}{}
	}
	for k, v := range src {
		if v == nil {
			delete(dst, k)
			continue
		}
		sm, srcIsMap := v.(map[string]interface{})
		dm, dstIsMap := dst[k].(map[string]interface{})
		if srcIsMap && dstIsMap {
			dst[k] = coalesce(dm, sm)
		} else {
			dst[k] = v
		}
	}
	return dst
}

func toYAML(v interface{}) string {
	// Helm marshals through JSON (sigs.k8s.io/yaml): the same key order and scalars as yaml.v2.
	j, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var generic interface{}
	if err := yaml.Unmarshal(j, &generic); err != nil {
		return ""
	}
	out, err := yaml.Marshal(generic)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

func run(chartDir, name, namespace string, versions []string, kubeVersion string, valueFiles []string, printValues, notes bool) error {
	chartMeta, err := readYAML(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return err
	}
	values, err := readYAML(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return err
	}
	for _, f := range valueFiles {
		user, err := readYAML(f)
		if err != nil {
			return err
		}
		values = coalesce(values, user)
	}
	if printValues {
		return json.NewEncoder(os.Stdout).Encode(values)
	}
	chart := map[string]interface{}{}
	for k, v := range chartMeta {
		chart[strings.ToUpper(k[:1])+k[1:]] = v
	}
	top := map[string]interface{}{
		"Values":  values,
		"Chart":   chart,
		"Release": map[string]interface{}{"Name": name, "Namespace": namespace, "Service": "Helm", "IsInstall": true, "IsUpgrade": false, "Revision": 1},
		"Capabilities": map[string]interface{}{
			"APIVersions": apiVersions(versions),
			"KubeVersion": map[string]interface{}{"Version": kubeVersion, "GitVersion": kubeVersion, "Major": "1", "Minor": strings.Split(kubeVersion, ".")[1]},
		},
		"Template": map[string]interface{}{"BasePath": name + "/templates"},
	}

	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	root := template.New("chart").Option("missingkey=zero")
	includeDepth := 0
	funcs["include"] = func(tpl string, data interface{}) (string, error) {
		includeDepth++
		defer func() { includeDepth-- }()
		if includeDepth > 100 {
			return "", errors.New("include: recursion too deep")
		}
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, tpl, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		t, err := root.Clone()
		if err != nil {
			return "", err
		}
		t, err = t.New("tpl").Parse(text)
		if err != nil {
			return "", err
		}
		var buf bytes.Buffer
		err = t.Execute(&buf, data)
		return buf.String(), err
	}
	funcs["required"] = func(msg string, v interface{}) (interface{}, error) {
		if v == nil || v == "" {
			return nil, errors.New(msg)
		}
		return v, nil
	}
	funcs["toYaml"] = toYAML
	funcs["fromYaml"] = func(s string) map[string]interface{} {
		var m map[string]interface{}
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			return map[string]interface{}{"Error": err.Error()}
		}
		if m == nil {
			return map[string]interface{}{}
		}
		return normalize(m).(map[string]interface{})
	}
	funcs["fromJson"] = func(s string) map[string]interface{} {
		m := map[string]interface{}{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			m["Error"] = err.Error()
		}
		return m
	}
	funcs["lookup"] = func(string, string, string, string) map[string]interface{} { return map[string]interface{}{} }
	root.Funcs(funcs)

	templatesDir := filepath.Join(chartDir, "templates")
	var names []string
	err = filepath.Walk(templatesDir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, path)
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		tplName := filepath.ToSlash(filepath.Join(name, rel))
		if _, err := root.New(tplName).Parse(string(text)); err != nil {
			return err
		}
		names = append(names, tplName)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	for _, tplName := range names {
		base := filepath.Base(tplName)
		isNotes := base == "NOTES.txt"
		if notes != isNotes || strings.HasPrefix(base, "_") || (!isNotes && !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".yml")) {
			continue
		}
		top["Template"].(map[string]interface{})["Name"] = tplName
		var buf bytes.Buffer
		if err := root.ExecuteTemplate(&buf, tplName, top); err != nil {
			return err
		}
		out := strings.ReplaceAll(buf.String(), "<no value>", "")
		if notes {
			fmt.Print(out)
			continue
		}
		for _, doc := range strings.Split(out, "\n---") {
			if strings.TrimSpace(strings.TrimPrefix(doc, "---")) == "" {
				continue
			}
			fmt.Printf("---\n# Source: %s\n%s\n", tplName, strings.TrimSpace(strings.TrimPrefix(doc, "---")))
		}
	}
	return nil
}
