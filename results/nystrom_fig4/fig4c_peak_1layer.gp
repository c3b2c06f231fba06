# Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8) Fig. 4(c): peak memory, one layer (d = 200, m = 8)
# Written by cosda report configs/nystrom_fig4.toml from points.csv; data inline. Executed counts solid
# (FLOPs in convention all), published formulas dashed (FLOPs from the Nyström paper, App. A (continual landmarks: one refresh every n/m steps, the other steps as the fixed-landmark update); memory from App. B), in the
# paper's convention mac.
# Fixed: layers = 1.
if (!exists("png")) png = 'fig4c_peak_1layer.png'
if (!exists("pdf")) pdf = 'fig4c_peak_1layer.pdf'
$e_att << EOD
8 6264
16 12856
32 26424
64 55096
128 118584
256 270192
512 671856
1024 1868400
2048 5834352
4096 20057712
8192 73670256
EOD
$p_att << EOD
8 6465
16 13057
32 26625
64 55297
128 118785
256 270337
512 671745
1024 1867777
2048 5832705
4096 20054017
8192 73662465
EOD
$e_ny << EOD
8 9464
16 15928
32 28856
64 54712
128 106424
256 209848
512 416696
1024 830392
2048 1657784
4096 3312568
8192 6622136
EOD
$p_ny << EOD
8 10121
16 16649
32 29705
64 55817
128 108041
256 212489
512 421385
1024 839177
2048 1674761
4096 3345929
8192 6688265
EOD
$e_ny_fix << EOD
8 10728
16 17192
32 30120
64 55976
128 107688
256 211112
512 417960
1024 831656
2048 1659048
4096 3313832
8192 6623400
EOD
$p_ny_fix << EOD
8 9857
16 16385
32 29441
64 55553
128 107777
256 212225
512 421121
1024 838913
2048 1674497
4096 3345665
8192 6688001
EOD
$e_co_si << EOD
8 3600
16 6800
32 13200
64 26000
128 51600
256 102856
512 205512
1024 410824
2048 821448
4096 1642696
8192 3285192
EOD
$p_co_si << EOD
8 3608
16 6816
32 13232
64 26064
128 51728
256 103056
512 205712
1024 411024
2048 821648
4096 1642896
8192 3285392
EOD
$e_co_re << EOD
8 7615
16 15631
32 31663
64 63727
128 127855
256 256111
512 512623
1024 1025647
2048 2051695
4096 4103791
8192 8207983
EOD
$p_co_re << EOD
8 8016
16 16032
32 32064
64 64128
128 128256
256 256512
512 513024
1024 1026048
2048 2052096
4096 4104192
8192 8208384
EOD
$e_cony_si_cont << EOD
8 8470
16 12135
32 18535
64 31335
128 56935
256 108135
512 210647
1024 415959
2048 826583
4096 1647831
8192 3290327
EOD
$p_cony_si_cont << EOD
8 10352
16 13624
32 20168
64 33256
128 59432
256 111784
512 216488
1024 425896
2048 844712
4096 1682344
8192 3357608
EOD
$e_cony_re_cont << EOD
8 12197
16 19189
32 32261
64 58405
128 110693
256 215269
512 424421
1024 842725
2048 1679333
4096 3352549
8192 6698981
EOD
$p_cony_re_cont << EOD
8 13488
16 20096
32 33312
64 59744
128 112608
256 218336
512 429792
1024 852704
2048 1698528
4096 3390176
8192 6773472
EOD
$e_cony_si_fix << EOD
8 7144
16 8808
32 12136
64 18792
128 32104
256 58728
512 111976
1024 218472
2048 431464
4096 857448
8192 1709416
EOD
$p_cony_si_fix << EOD
8 5080
16 5080
32 5080
64 5080
128 5080
256 5080
512 5080
1024 5080
2048 5080
4096 5080
8192 5080
EOD
$e_cony_re_fix << EOD
8 9800
16 13128
32 19784
64 33096
128 59720
256 112968
512 219464
1024 432456
2048 858440
4096 1710408
8192 3414344
EOD
$p_cony_re_fix << EOD
8 6544
16 8208
32 11536
64 18192
128 31504
256 58128
512 111376
1024 217872
2048 430864
4096 856848
8192 1708816
EOD
set title 'Nyström paper, Fig. 4: cost per step against n (d = 200, m = 8)' . "\n" . 'Fig. 4(c): peak memory, one layer (d = 200, m = 8)' noenhanced
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
  $p_co_re with lines lw 4 lc rgb '#700072b2' dt (9,6) notitle, \
  $p_cony_si_cont with lines lw 4 lc rgb '#70d55e00' dt (9,6) notitle, \
  $p_cony_re_cont with lines lw 4 lc rgb '#70cc79a7' dt (9,6) notitle, \
  $p_cony_si_fix with lines lw 4 lc rgb '#70999933' dt (9,6) notitle, \
  $p_cony_re_fix with lines lw 4 lc rgb '#70882255' dt (9,6) notitle, \
  $e_att with linespoints lw 2 lc rgb '#000000' pt 5 ps 1.1 dt 1 title 'att', \
  $e_ny with linespoints lw 2 lc rgb '#e69f00' pt 7 ps 1.1 dt 1 title 'ny', \
  $e_ny_fix with linespoints lw 2 lc rgb '#56b4e9' pt 9 ps 1.1 dt 1 title 'ny_fix', \
  $e_co_si with linespoints lw 2 lc rgb '#009e73' pt 11 ps 1.1 dt 1 title 'co_si', \
  $e_co_re with linespoints lw 2 lc rgb '#0072b2' pt 13 ps 1.1 dt 1 title 'co_re', \
  $e_cony_si_cont with linespoints lw 2 lc rgb '#d55e00' pt 4 ps 1.1 dt 1 title 'cony_si_cont', \
  $e_cony_re_cont with linespoints lw 2 lc rgb '#cc79a7' pt 6 ps 1.1 dt 1 title 'cony_re_cont', \
  $e_cony_si_fix with linespoints lw 2 lc rgb '#999933' pt 8 ps 1.1 dt 1 title 'cony_si_fix', \
  $e_cony_re_fix with linespoints lw 2 lc rgb '#882255' pt 12 ps 1.1 dt 1 title 'cony_re_fix', \
  NaN with lines lw 2 lc rgb 'black' dt 1 title 'executed (counted)', \
  NaN with lines lw 4 lc rgb '#70000000' dt (9,6) title 'published formula (mac)'
set output
if (strstrt(GPVAL_TERMINALS, 'pdfcairo') > 0) {
  set terminal pdfcairo size 7in,4.3in font 'DejaVu Sans,9'
  set output pdf
  replot
  set output
}
