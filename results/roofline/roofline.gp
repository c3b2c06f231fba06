set terminal pngcairo size 1400,900 font 'Sans,11' noenhanced
set output 'roofline.png'
set title 'Roofline of AMD EPYC (family 25, model 17, stepping 1) (one thread; AVX-512), measured steady-state steps'
set logscale xy
set xlabel 'arithmetic intensity: executed FLOPs / bytes touched per step'
set ylabel 'GFLOP/s'
set xrange [0.01:1000]
set yrange [0.05:1000]
set key outside right top
set grid
set samples 400
$P0 << EOD
27.7227 62.2245
15.6351 73.9551
19.9405 91.0545
199.94 103.983
25.8648 92.5814
51.1402 99.2474
EOD
$P1 << EOD
1.58337 26.2084
7.27484 48.935
3.91054 33.2538
4.09005 39.627
2.06206 29.3303
EOD
$P2 << EOD
1.64362 37.0878
6.57563 49.6755
3.55912 41.58
3.89579 37.9114
1.86056 32.8743
EOD
$P3 << EOD
0.498815 53.1614
0.482973 50.6737
0.487864 34.465
0.498754 39.1261
0.490204 51.9689
0.495174 53.4725
EOD
$P4 << EOD
0.613155 36.3237
0.637471 37.4471
0.639051 30.1113
0.648892 25.6668
0.641824 42.736
EOD
$P5 << EOD
0.568339 27.8986
0.902914 47.8106
0.77479 20.913
0.678202 42.1609
0.593234 30.478
EOD
$P6 << EOD
1.11744 44.5905
3.16412 78.2552
2.41793 35.603
3.53663 65.911
1.45372 37.0691
EOD
$P7 << EOD
0.443686 24.9851
0.734101 49.0729
0.647928 24.8659
0.657258 42.2336
0.539033 30.0384
EOD
$P8 << EOD
1.15536 46.9684
3.96147 85.6274
2.6936 38.2591
3.60542 69.074
1.52452 37.7227
EOD
$P9 << EOD
1.83597 32.7886
7.08698 55.3106
3.79731 40.5927
4.0896 40.1432
2.0564 34.5976
EOD
$P10 << EOD
0.809451 25.9588
1.09345 47.7691
0.967534 27.55
0.975313 44.9207
0.804914 33.3356
EOD
$P11 << EOD
1.49733 41.1651
5.38956 80.5481
3.25238 31.7085
3.90708 59.097
1.84733 31.7231
EOD
$P12 << EOD
14.5219 28.2993
7.81753 40.5806
9.97024 45.3685
99.97 51.6498
12.9324 45.2723
25.5701 49.2784
EOD
$P13 << EOD
0.791685 16.6336
3.63742 28.2217
1.95527 22.4973
2.04503 14.566
1.03103 17.2136
EOD
$P14 << EOD
0.821809 20.6097
3.28781 29.6859
1.77956 25.1895
1.9479 16.5353
0.930281 18.5234
EOD
$P15 << EOD
0.250468 24.1392
0.241487 21.4859
0.243932 22.2986
0.249377 14.6882
0.245102 26.0836
0.247587 23.6804
EOD
$P16 << EOD
0.30707 16.5846
0.318735 18.3824
0.319526 19.709
0.324446 8.38299
0.320912 21.137
EOD
$P17 << EOD
0.284169 14.628
0.451457 23.8752
0.387395 18.2482
0.339101 19.4045
0.296617 18.1346
EOD
$P18 << EOD
0.558722 32.5737
1.58206 39.3972
1.20896 24.3188
1.76831 35.9865
0.726858 19.5809
EOD
$P19 << EOD
0.221843 14.1716
0.367051 24.3601
0.323964 17.8543
0.328629 20.4219
0.269517 17.6409
EOD
$P20 << EOD
0.577681 37.0025
1.98073 41.9505
1.3468 24.9978
1.80271 36.8606
0.76226 19.9699
EOD
$P21 << EOD
0.917987 18.5987
3.54349 33.4637
1.89866 25.5856
2.0448 16.4666
1.0282 19.8589
EOD
$P22 << EOD
0.404726 16.3175
0.546726 25.0384
0.483767 20.3231
0.487656 21.0293
0.402457 19.6493
EOD
$P23 << EOD
0.748666 24.1379
2.69478 41.18
1.62619 21.5158
1.95354 32.1894
0.923666 17.8055
EOD
plot 106.054 w l lw 3 lc rgb 'black' t 'float peak 106 GFLOP/s', \
  52.9621 w l lw 3 dt 2 lc rgb 'black' t 'double peak 53 GFLOP/s', \
  (x*208.506 < 106.054 ? x*208.506 : 1/0) w l lw 2 lc rgb '#1b9e77' t 'l1 read 209 GB/s', \
  (x*108.499 < 106.054 ? x*108.499 : 1/0) w l lw 2 lc rgb '#d95f02' t 'l2 read 108 GB/s', \
  (x*66.3802 < 106.054 ? x*66.3802 : 1/0) w l lw 2 lc rgb '#7570b3' t 'l3 read 66 GB/s', \
  (x*21.4136 < 106.054 ? x*21.4136 : 1/0) w l lw 2 lc rgb '#e7298a' t 'dram read 21 GB/s', \
  $P0 u 1:2 w p pt 5 ps 1.6 lc rgb '#000000' t 'att float', \
  $P1 u 1:2 w p pt 7 ps 1.6 lc rgb '#e69f00' t 'ny float', \
  $P2 u 1:2 w p pt 9 ps 1.6 lc rgb '#56b4e9' t 'ny_fix float', \
  $P3 u 1:2 w p pt 11 ps 1.6 lc rgb '#009e73' t 'co_si float', \
  $P4 u 1:2 w p pt 13 ps 1.6 lc rgb '#0072b2' t 'co_re float', \
  $P5 u 1:2 w p pt 5 ps 1.6 lc rgb '#d55e00' t 'cony_si_cont float', \
  $P6 u 1:2 w p pt 7 ps 1.6 lc rgb '#cc79a7' t 'cony_re_cont float', \
  $P7 u 1:2 w p pt 9 ps 1.6 lc rgb '#999933' t 'cony_si_fix float', \
  $P8 u 1:2 w p pt 13 ps 1.6 lc rgb '#882255' t 'cony_re_fix float', \
  $P9 u 1:2 w p pt 3 ps 1.6 lc rgb '#44aa99' t 'rf float', \
  $P10 u 1:2 w p pt 2 ps 1.6 lc rgb '#117733' t 'corf_si float', \
  $P11 u 1:2 w p pt 11 ps 1.6 lc rgb '#aa4499' t 'corf_re float', \
  $P12 u 1:2 w p pt 4 ps 1.6 lc rgb '#000000' t 'att double', \
  $P13 u 1:2 w p pt 6 ps 1.6 lc rgb '#e69f00' t 'ny double', \
  $P14 u 1:2 w p pt 8 ps 1.6 lc rgb '#56b4e9' t 'ny_fix double', \
  $P15 u 1:2 w p pt 10 ps 1.6 lc rgb '#009e73' t 'co_si double', \
  $P16 u 1:2 w p pt 12 ps 1.6 lc rgb '#0072b2' t 'co_re double', \
  $P17 u 1:2 w p pt 4 ps 1.6 lc rgb '#d55e00' t 'cony_si_cont double', \
  $P18 u 1:2 w p pt 6 ps 1.6 lc rgb '#cc79a7' t 'cony_re_cont double', \
  $P19 u 1:2 w p pt 8 ps 1.6 lc rgb '#999933' t 'cony_si_fix double', \
  $P20 u 1:2 w p pt 12 ps 1.6 lc rgb '#882255' t 'cony_re_fix double', \
  $P21 u 1:2 w p pt 3 ps 1 lc rgb '#44aa99' t 'rf double', \
  $P22 u 1:2 w p pt 2 ps 1 lc rgb '#117733' t 'corf_si double', \
  $P23 u 1:2 w p pt 10 ps 1.6 lc rgb '#aa4499' t 'corf_re double'
