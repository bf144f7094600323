# Writes tests/config/dts/prop-*.dts: every Xen domain property Bulkhead
# accepts for what it gives, or refuses (docs/device-tree.md, "The binding"):
#   python3 tests/config/gen-prop-cases.py
HEAD = '''/dts-v1/;
// CONFIG:{config}
// EXPECT: {expect}
/* {why} */
/ {{
	#address-cells = <2>;
	#size-cells = <2>;
	memory@40000000 {{
		device_type = "memory";
		reg = <0 0x40000000 0 0x40000000>;
	}};
	chosen {{
		#address-cells = <2>;
		#size-cells = <2>;
		domU1 {{
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 16384>;
			cpus = <1>;
{props}			module@50000000 {{
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0 0x50000000 0 0x1000>;
			}};
		}};
	}};
}};
'''
N = '/chosen/domU1: '
CASES = {
    # Accepted: Bulkhead gives at least what the property asks.
    'prop-ok-nr-spis': ('OK', 'nr_spis within CONFIG_VGIC_NR_SPIS (the vGIC offers all 32)', 'nr_spis = <32>', ''),
    'prop-ok-nr-spis-0': ('OK', 'no SPI at all, no vpl011', 'nr_spis = <0>', ''),
    'prop-ok-p2m': ('OK', 'a 1 MiB P2M pool, CONFIG_P2M_POOL_PAGES holds 256 pages',
                    'xen,domain-p2m-mem-mb = <1>', 'CONFIG_P2M_POOL_PAGES=256'),
    'prop-ok-sve': ('OK', 'SVE disabled, Xen\'s default and every partition\'s', 'sve = <0>', ''),
    'prop-ok-passthrough': ('OK', 'no IOMMU mappings, what every partition gets', 'passthrough = "disabled"', ''),
    'prop-ok-trap': ('OK', 'unmapped accesses trap, Xen\'s default', 'trap-unmapped-accesses = <1>', ''),
    'prop-ok-sci': ('OK', 'no SCMI, Xen\'s default', 'xen,sci_type = "none"', ''),
    'prop-ok-msa': ('OK', 'EL1 with its MMU (VMSAv8), what an Armv8-A partition has', 'v8r_el1_msa = "mmu"', ''),
    # Refused: Bulkhead cannot give it.
    'prop-nr-spis-over': (N + 'nr_spis = <64>, CONFIG_VGIC_NR_SPIS=32', 'more SPIs than the vGIC has',
                          'nr_spis = <64>', ''),
    'prop-nr-spis-cells': (N + 'nr_spis must be one cell', 'two cells', 'nr_spis = <0 32>', ''),
    'prop-nr-spis-vpl011': (N + 'vpl011 needs SPI 0 (INTID 32), nr_spis = <0>',
                            'a vpl011 and no SPI for it (Xen 4.17 fails to build it)', 'vpl011\nnr_spis = <0>', ''),
    'prop-p2m-over': (N + 'xen,domain-p2m-mem-mb = <1> (256 pages), CONFIG_P2M_POOL_PAGES=32',
                      'a P2M pool larger than the static one', 'xen,domain-p2m-mem-mb = <1>', ''),
    'prop-p2m-cells': (N + 'xen,domain-p2m-mem-mb must be one cell', 'a 64-bit value',
                       'xen,domain-p2m-mem-mb = <0 1>', ''),
    'prop-cpupool': (N + 'domain-cpupool: no cpupools: each vCPU has a physical CPU of its own (bulkhead,cpus)',
                     'a cpupool', 'domain-cpupool = <&pool>', ''),
    'prop-llc-colors': (N + 'llc-colors: no cache colouring', 'Xen 4.20\'s cache colouring',
                        'llc-colors = "0-3"', ''),
    'prop-sve-bare': (N + 'sve: only <0>: partitions get no SVE (it is undefined to them)',
                      'SVE at the hardware\'s vector length', 'sve', ''),
    'prop-sve-128': (N + 'sve: only <0>: partitions get no SVE (it is undefined to them)',
                     '128-bit SVE', 'sve = <128>', ''),
    'prop-passthrough': (N + 'passthrough: only "disabled": no IOMMU is driven (xen,force-assign-without-iommu)',
                         'IOMMU mappings (Xen 4.19)', 'passthrough = "enabled"', ''),
    'prop-trap-0': (N + 'trap-unmapped-accesses: only <1>: an access to unmapped memory traps (and stops the partition)',
                    'unmapped reads as all ones', 'trap-unmapped-accesses = <0>', ''),
    'prop-sci': (N + 'xen,sci_type: only "none": no SCMI calls are forwarded', 'SCMI over SMC',
                 'xen,sci_type = "scmi_smc"', ''),
    'prop-msa-mpu': (N + 'v8r_el1_msa: only "mmu": partitions run with their MMU', 'Armv8-R PMSA',
                     'v8r_el1_msa = "mpu"', ''),
    'prop-bulkhead-typo': (N + 'bulkhead,restrat: not a Bulkhead property', 'a misspelt bulkhead, property',
                           'bulkhead,restrat = "always"', ''),
}
POOL = '''		pool: cpupool {
			compatible = "xen,cpupool";
			cpupool-cpus = <&cpu0>;
		};
'''
for name, (expect, why, props, config) in CASES.items():
    p = ''.join('\t\t\t%s;\n' % l for l in props.split('\n'))
    s = HEAD.format(expect=expect, why=why, props=p, config=(' ' + config) if config else '')
    if 'pool' in props:
        s = s.replace('\t\tdomU1 {', POOL + '\t\tdomU1 {')
        s = s.replace('\tchosen {', '\tcpus {\n\t\t#address-cells = <1>;\n\t\t#size-cells = <0>;\n'
                      '\t\tcpu0: cpu@0 {\n\t\t\tdevice_type = "cpu";\n\t\t\treg = <0>;\n\t\t};\n\t};\n\tchosen {')
    open('tests/config/dts/%s.dts' % name, 'w').write(s)

# nr_spis bounds the assigned devices' SPIs too, as on Xen (QEMU virt's PL031 is SPI 2).
open('tests/config/dts/prop-nr-spis-device.dts', 'w').write('''/dts-v1/;
// CONFIG:
// MODULE: 0x50100000 rtc
// EXPECT: /chosen/domU1/module@50100000: /passthrough/pl031@9010000: xen,path "/pl031@9010000": interrupt 34 (SPI 2) is beyond nr_spis = <2>
/* the PL031's SPI 2 for a partition that asked for SPIs 0 and 1 only */
/include/ "virt.dtsi"
/ {
	chosen {
		domU1 {
			nr_spis = <2>;
			module@50100000 {
				compatible = "multiboot,device-tree", "multiboot,module";
				reg = <0 0x50100000 0 0x1000>;
			};
		};
	};
};
''')
open('tests/config/dts/prop-ok-nr-spis-device.dts', 'w').write('''/dts-v1/;
// CONFIG:
// MODULE: 0x50100000 rtc
// EXPECT: OK
/* nr_spis = <3>: the PL031's SPI 2 is within it */
/include/ "virt.dtsi"
/ {
	chosen {
		domU1 {
			nr_spis = <3>;
			module@50100000 {
				compatible = "multiboot,device-tree", "multiboot,module";
				reg = <0 0x50100000 0 0x1000>;
			};
		};
	};
};
''')
