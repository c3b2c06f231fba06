# Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8) Fig. 4(d): peak memory, two layers: retroactive then single-output block (d = 200, m = 8)
# Written by cosda report configs/nystrom_fig4.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac.
# Fixed: layers = 2.
if (!exists("png")) png = 'fig4d_peak_2layer.png'
if (!exists("pdf")) pdf = 'fig4d_peak_2layer.pdf'
$e_att << EOD
8 7472
16 15672
32 32456
64 67560
128 143912
256 321192
512 774056
1024 2073000
2048 6243752
4096 20876712
8192 75308456
EOD
$p_att << EOD
8 11262
16 22654
32 45822
64 93694
128 195582
256 423934
512 978942
1024 2482174
2048 7061502
4096 22511614
8192 78577662
EOD
$e_ny << EOD
8 10664
16 18728
32 34856
64 67112
128 131624
256 260648
512 518696
1024 1034792
2048 2066984
4096 4131368
8192 8260136
EOD
$p_ny << EOD
8 14918
16 26246
32 48902
64 94214
128 184838
256 366086
512 728582
1024 1453574
2048 2903558
4096 5803526
8192 11603462
EOD
$e_ny_fix << EOD
8 14064
16 22056
32 38184
64 70440
128 134952
256 263976
512 522024
1024 1038120
2048 2070312
4096 4134696
8192 8263464
EOD
$p_ny_fix << EOD
8 17918
16 29246
32 51902
64 97214
128 187838
256 369086
512 731582
1024 1456574
2048 2906558
4096 5806526
8192 11606462
EOD
$e_co_si << EOD
8 7815
16 15831
32 31863
64 63927
128 128055
256 256311
512 512823
1024 1025847
2048 2051895
4096 4103991
8192 8208183
EOD
$p_co_si << EOD
8 11214
16 22430
32 44862
64 89726
128 179454
256 358910
512 717822
1024 1435646
2048 2871294
4096 5742590
8192 11485182
EOD
$e_cony_si_cont << EOD
8 13941
16 20989
32 34061
64 60205
128 112493
256 217381
512 428581
1024 850981
2048 1696165
4096 3387813
8192 6771109
EOD
$p_cony_si_cont << EOD
8 23214
16 33022
32 52638
64 91870
128 170334
256 327262
512 641118
1024 1268830
2048 2524254
4096 5035102
8192 10056798
EOD
$e_cony_si_fix << EOD
8 13064
16 16392
32 23048
64 36360
128 62984
256 116936
512 225736
1024 443336
2048 878536
4096 1748936
8192 3489736
EOD
$p_cony_si_fix << EOD
8 11416
16 13080
32 16408
64 23064
128 36376
256 63000
512 116248
1024 222744
2048 435736
4096 861720
8192 1713688
EOD
set title 'Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8)' . "\n" . 'Fig. 4(d): peak memory, two layers: retroactive then single-output block (d = 200, m = 8)' noenhanced
set xlabel 'n (tokens in the window)'
set ylabel 'peak memory (values)'
set logscale xy
set format y '10^{%L}'
set xtics ('8' 8, '16' 16, '32' 32, '64' 64, '128' 128, '256' 256, '512' 512, '1024' 1024, '2048' 2048, '4096' 4096, '8192' 8192)
set mxtics default
set grid xtics ytics mytics lc rgb '#dddddd'
set key outside right top noenhanced spacing 1.2
set autoscale fix
set offsets graph 0.04, graph 0.04, graph 0.06, graph 0.06
set border lw 1.2
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
  set terminal pngcairo size 1100,680 font 'DejaVu Sans,12'
} else {
  set terminal png size 1100,680
}
set output png
plot \
  $p_att with lines lw 4 lc rgb '#70000000' dt (9,6) notitle, \
  $p_ny with lines lw 4 lc rgb '#70e69f00' dt (9,6) notitle, \
  $p_ny_fix with lines lw 4 lc rgb '#7056b4e9' dt (9,6) notitle, \
  $p_co_si with lines lw 4 lc rgb '#70009e73' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
